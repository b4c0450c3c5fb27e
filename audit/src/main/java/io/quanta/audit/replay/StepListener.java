package io.quanta.audit.replay;

import io.quanta.audit.log.InboxRecord;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.SchedulingDecision;
import java.util.List;

/** Told what the replayed scheduler did on each inbox record it applied (explain builds timelines from it). */
@FunctionalInterface
public interface StepListener {

    /** Listens to nothing. */
    StepListener NONE = (record, decisions, statuses) -> { };

    /**
     * @param record    the inbox record just processed
     * @param decisions the decisions the replayed scheduler wrote on it, in order
     * @param statuses  the job statuses it wrote on it (one per changed job)
     */
    void step(InboxRecord record, List<SchedulingDecision> decisions, List<JobStatus> statuses);
}
