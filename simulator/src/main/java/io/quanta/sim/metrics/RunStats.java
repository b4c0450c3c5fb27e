package io.quanta.sim.metrics;

/**
 * Counters of one simulation run that are not about single jobs.
 *
 * @param totalGpus GPUs of the cluster
 * @param allocatedGpuSeconds integral over virtual time of the GPUs held by at least one attempt
 * @param simulatedSeconds virtual time from the origin to the last step
 * @param wallSeconds wall-clock time of the run
 * @param decisions decision records written by the scheduler
 * @param inputRecords records given to the scheduler (submissions, heartbeats, events, telemetry)
 * @param steps instants the event loop stopped at
 * @param deadLetters dead-letter records written by the scheduler
 * @param stopReason why the loop stopped ({@code all jobs done}, or what kept the rest from finishing)
 * @param inputs the input records by kind
 */
public record RunStats(int totalGpus, double allocatedGpuSeconds, double simulatedSeconds, double wallSeconds,
                       long decisions, long inputRecords, long steps, long deadLetters, String stopReason, InputCounts inputs) {

    /** Counters of a run whose inputs were not counted by kind (e.g. a live cluster observed from outside). */
    public RunStats(int totalGpus, double allocatedGpuSeconds, double simulatedSeconds, double wallSeconds,
                    long decisions, long inputRecords, long steps, long deadLetters, String stopReason) {
        this(totalGpus, allocatedGpuSeconds, simulatedSeconds, wallSeconds, decisions, inputRecords, steps, deadLetters,
                stopReason, InputCounts.NONE);
    }
}
