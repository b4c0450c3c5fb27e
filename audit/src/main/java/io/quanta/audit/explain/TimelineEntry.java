package io.quanta.audit.explain;

import java.time.Instant;

/**
 * One moment of a job's life: an input about it (submission, cancellation, a node's event) or a decision about it,
 * with the job's state, queue level and attained service right after the scheduler handled that inbox record.
 *
 * @param time               stream time (record timestamp, or the decision's stream time)
 * @param inboxOffset        the inbox record this happened on
 * @param seq                the decision's sequence number, -1 for an input
 * @param what               what happened, e.g. {@code submitted}, {@code START on n1:0,1}
 * @param state              the job's state after the record, e.g. {@code RUNNING}
 * @param queueLevel         the job's queue level after the record
 * @param attainedGpuSeconds the job's attained service after the record (GPU-seconds)
 * @param reason             the decision's reason, or for an input the job's status reason after it
 */
public record TimelineEntry(Instant time, long inboxOffset, long seq, String what, String state, int queueLevel,
                            double attainedGpuSeconds, String reason) {

    /** True for a decision, false for an input. */
    public boolean isDecision() {
        return seq >= 0;
    }
}
