package io.quanta.streams.cell;

/**
 * Per-cell bookkeeping: the decision sequence number, the hash of the configuration last recorded in the audit log,
 * the arrival counter, the cell's stream time, the inbox offsets not yet covered by a decision, and the next
 * stream time at which the cell wants to run (the earlier of the policy's wake-up and the next node-liveness
 * deadline). Mutable working copy; the cell-meta store holds its serialized form.
 */
public final class CellMeta {

    String cellId;
    long seq;
    String configHash = "";
    long arrivalSeq;
    long timeMs = -1;
    long heartbeatTimeMs = -1;
    long lastDecisionOffset = -1;
    boolean dirty;
    long policyWakeUpMs = -1;
    long livenessDeadlineMs = -1;
    long nextTickMs = -1;
    long passes;
    long droppedTelemetry;

    CellMeta() {
    }

    CellMeta(String cellId) {
        this.cellId = cellId;
    }

    public String cellId() {
        return cellId;
    }

    /** Telemetry records this cell could not use (no running attempt matches, or a rate that is not a number >= 0). */
    public long droppedTelemetry() {
        return droppedTelemetry;
    }

    /** Sequence number of the last decision written (0 before the first). */
    public long seq() {
        return seq;
    }

    /** Hash of the configuration last recorded with a CONFIG decision, empty before the first. */
    public String configHash() {
        return configHash;
    }

    /** The cell's stream time: the largest record timestamp it has seen, -1 before the first. */
    public long timeMs() {
        return timeMs;
    }

    /**
     * The cell's heartbeat clock: the largest timestamp of its nodes' heartbeats, -1 before the first. Node liveness
     * is measured on it, so that neither a burst of other records (a backlog after a restart) nor a submitter's
     * clock can make a node look silent.
     */
    public long heartbeatTimeMs() {
        return heartbeatTimeMs;
    }

    /** When the policy wants a pass even without input, -1 when never. */
    public long policyWakeUpMs() {
        return policyWakeUpMs;
    }

    /**
     * The heartbeat-clock time at which the next alive node counts as lost (a heartbeat with this timestamp or later
     * from any node of the cell makes it so), -1 when no node is alive.
     */
    public long livenessDeadlineMs() {
        return livenessDeadlineMs;
    }

    /**
     * The next stream time at which this cell does something without new input: the earlier of the policy wake-up
     * and the liveness deadline; -1 when neither. A simulator advances virtual time to it instead of polling.
     */
    public long nextWakeUpMs() {
        long next = earliest(policyWakeUpMs, livenessDeadlineMs);
        return dirty ? earliest(next, nextTickMs) : next;
    }

    /** True when the state changed since the last pass (the next quantum boundary runs one). */
    public boolean dirty() {
        return dirty;
    }

    private static long earliest(long a, long b) {
        if (a < 0) {
            return b;
        }
        return b < 0 ? a : Math.min(a, b);
    }

    /** Scheduling passes run so far. */
    public long passes() {
        return passes;
    }
}
