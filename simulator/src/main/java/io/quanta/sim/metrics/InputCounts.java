package io.quanta.sim.metrics;

/**
 * The records the simulator gave the scheduler, by kind.
 *
 * @param submissions job submissions
 * @param events job events from the nodes (STARTED, SUSPENDED, COMPLETED, ...)
 * @param telemetry telemetry records (only when an attempt's throughput changed)
 * @param heartbeats periodic heartbeats of every node
 * @param ticks single heartbeats sent only to move the scheduler's stream time to its wake-up
 */
public record InputCounts(long submissions, long events, long telemetry, long heartbeats, long ticks) {

    /** No records. */
    public static final InputCounts NONE = new InputCounts(0, 0, 0, 0, 0);

    /** All records. */
    public long total() {
        return submissions + events + telemetry + heartbeats + ticks;
    }

    @Override
    public String toString() {
        return submissions + " submissions, " + events + " events, " + telemetry + " telemetry, " + heartbeats
                + " heartbeats, " + ticks + " wake-up ticks";
    }
}
