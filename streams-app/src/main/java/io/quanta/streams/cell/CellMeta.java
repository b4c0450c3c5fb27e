package io.quanta.streams.cell;

import java.util.function.Consumer;

/**
 * Per-cell bookkeeping: the decision sequence number, the hash of the configuration last recorded in the audit log,
 * the arrival counter, the cell's stream time, the inbox offsets not yet covered by a decision, and the next
 * stream time at which the cell wants to run (the earlier of the policy's wake-up and the next node-liveness
 * deadline). An immutable value: a change is a new value made by {@link #with} and given to
 * {@link CellState#changeMeta}, which marks it for the cell-meta store when it differs (so a field changed without
 * its flag, as could happen while the flag was set by hand, cannot be left out of the store).
 *
 * @param seq                the number of the cell's last decision
 * @param configHash         the configuration last recorded (a CONFIG decision), empty before the first
 * @param arrivalSeq         the last arrival number given to a submission
 * @param timeMs             the cell's stream time: the largest timestamp of its inbox records, -1 before any
 * @param heartbeatTimeMs    the largest timestamp of the cell's heartbeats (the liveness clock), -1 before any
 * @param lastDecisionOffset the inbox offset of the record that produced the last decision, -1 before any
 * @param dirty              something changed that the next periodic pass must look at
 * @param policyWakeUpMs     when the policy asked to be woken, -1 for never
 * @param livenessDeadlineMs when the next alive node would be lost, -1 for none
 * @param nextTickMs         the next periodic pass, -1 before the first
 * @param passes             scheduling passes run
 * @param droppedTelemetry   telemetry records this cell could not use (no running attempt matches, or a rate that is
 *                           not a number >= 0)
 */
public record CellMeta(String cellId, long seq, String configHash, long arrivalSeq, long timeMs, long heartbeatTimeMs,
                       long lastDecisionOffset, boolean dirty, long policyWakeUpMs, long livenessDeadlineMs,
                       long nextTickMs, long passes, long droppedTelemetry) {

    /** A cell seen for the first time. */
    CellMeta(String cellId) {
        this(cellId, 0, "", 0, -1, -1, -1, false, -1, -1, -1, 0, 0);
    }

    /** This meta with the changes {@code change} makes to a draft of it. */
    CellMeta with(Consumer<Draft> change) {
        Draft draft = new Draft(this);
        change.accept(draft);
        return draft.build();
    }

    public long nextWakeUpMs() {
        long next = earliest(policyWakeUpMs, livenessDeadlineMs);
        return dirty ? earliest(next, nextTickMs) : next;
    }

    private static long earliest(long a, long b) {
        if (a < 0) {
            return b;
        }
        return b < 0 ? a : Math.min(a, b);
    }

    /**
     * A changeable copy of the fields, only ever alive inside {@link #with}: one change names only the fields it
     * sets ({@code meta.with(m -> m.seq++)}) instead of a copy method per field of this record.
     */
    static final class Draft {
        long seq;
        String configHash;
        long arrivalSeq;
        long timeMs;
        long heartbeatTimeMs;
        long lastDecisionOffset;
        boolean dirty;
        long policyWakeUpMs;
        long livenessDeadlineMs;
        long nextTickMs;
        long passes;
        long droppedTelemetry;
        private final String cellId;

        private Draft(CellMeta m) {
            cellId = m.cellId;
            seq = m.seq;
            configHash = m.configHash;
            arrivalSeq = m.arrivalSeq;
            timeMs = m.timeMs;
            heartbeatTimeMs = m.heartbeatTimeMs;
            lastDecisionOffset = m.lastDecisionOffset;
            dirty = m.dirty;
            policyWakeUpMs = m.policyWakeUpMs;
            livenessDeadlineMs = m.livenessDeadlineMs;
            nextTickMs = m.nextTickMs;
            passes = m.passes;
            droppedTelemetry = m.droppedTelemetry;
        }

        private CellMeta build() {
            return new CellMeta(cellId, seq, configHash, arrivalSeq, timeMs, heartbeatTimeMs, lastDecisionOffset,
                    dirty, policyWakeUpMs, livenessDeadlineMs, nextTickMs, passes, droppedTelemetry);
        }
    }
}
