package io.quanta.streams.cell;

import io.quanta.schemas.DeadLetter;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.SchedulingDecision;

/** Where a cell scheduler's results go (the processor forwards them to the sinks; tests collect them). */
public interface CellOutput {

    /** A command for a node connector (key: node id). */
    void command(NodeCommand command);

    /** An audit record (key: cell id). */
    void decision(SchedulingDecision decision);

    /** A job's new status (key: job id). */
    void status(JobStatus status);

    /** An input the cell could not use (key: the original record's key). */
    void deadLetter(String key, DeadLetter deadLetter);
}
