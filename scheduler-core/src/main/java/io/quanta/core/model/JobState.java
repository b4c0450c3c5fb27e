package io.quanta.core.model;

/**
 * Life-cycle state of a job as seen by the scheduler. QUEUED covers both new and suspended jobs.
 * STARTING and SUSPENDING hold their GPUs (they are never free). The last four states are terminal.
 */
public enum JobState {
    QUEUED,
    STARTING,
    RUNNING,
    SUSPENDING,
    FINISHED,
    FAILED,
    REJECTED,
    CANCELLED;

    /** True for FINISHED, FAILED, REJECTED and CANCELLED: the scheduler ignores such jobs. */
    public boolean isTerminal() {
        return this == FINISHED || this == FAILED || this == REJECTED || this == CANCELLED;
    }

    /** True for STARTING, RUNNING and SUSPENDING: the job holds GPUs. */
    public boolean holdsGpus() {
        return this == STARTING || this == RUNNING || this == SUSPENDING;
    }
}
