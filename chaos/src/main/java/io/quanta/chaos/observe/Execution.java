package io.quanta.chaos.observe;

import java.util.List;

/**
 * One attempt of a job as it ran on one node: from its STARTED event to its end (the first COMPLETED, FAILED,
 * SUSPENDED or LOST of that attempt from that node, or the {@code kill -9} of the connector running it), on the GPUs
 * its START command named. Times are the connectors' clocks (all on this machine).
 *
 * @param endAt   {@link Long#MAX_VALUE} while no end is known (still running when the run was checked)
 * @param endType the end event type, {@code KILLED} for a connector killed under it, {@code OPEN} for none
 */
public record Execution(String jobId, int attempt, String nodeId, long epoch, long startAt, long endAt,
                        String endType, List<Integer> gpus) {

    public boolean isOpen() {
        return endAt == Long.MAX_VALUE;
    }

    /** Whether both ran at some common instant (touching ends do not overlap). */
    public boolean overlaps(Execution other) {
        return startAt < other.endAt && other.startAt < endAt;
    }

    @Override
    public String toString() {
        return jobId + "#" + attempt + " on " + nodeId + " (epoch " + epoch + ") " + gpus + " from " + startAt
                + " to " + (isOpen() ? "open" : endAt + " " + endType);
    }
}
