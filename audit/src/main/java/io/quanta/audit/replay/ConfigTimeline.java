package io.quanta.audit.replay;

import io.quanta.audit.log.RecordedDecision;
import io.quanta.schemas.DecisionType;
import io.quanta.schemas.SchedulingDecision;
import java.util.ArrayList;
import java.util.List;

/**
 * The configurations in force over a cell's history, from its CONFIG decisions. The scheduler writes a CONFIG record
 * as the first thing it does on the first inbox record it handles under a new configuration, so that record
 * ({@code inboxOffsetTo} of the CONFIG decision) is where the replay switches; the first configuration applies from
 * the beginning of the log.
 *
 * @param changes every change in order; the first applies from the beginning
 */
public record ConfigTimeline(List<Change> changes) {

    /** A configuration in force from the inbox record at {@code fromOffset} on. */
    public record Change(long fromOffset, RecordedConfig config) {
    }

    public ConfigTimeline {
        changes = List.copyOf(changes);
    }

    /**
     * The timeline of a cell's recorded decisions (in log order).
     *
     * @throws ReplayException when the log does not start with a CONFIG decision of sequence number 1 (the
     *                         beginning of the audit log was deleted), or a CONFIG record is inconsistent
     */
    public static ConfigTimeline of(List<RecordedDecision> decisions) {
        if (decisions.isEmpty()) {
            return new ConfigTimeline(List.of());
        }
        SchedulingDecision first = decisions.get(0).decision();
        if (first.getSeq() != 1 || first.getType() != DecisionType.CONFIG) {
            throw new ReplayException("the first retained decision of cell " + first.getCellId() + " is seq "
                    + first.getSeq() + " (" + first.getType() + "), not the CONFIG record seq 1: the beginning of "
                    + "the audit log is gone, so the configuration in force and the state cannot be rebuilt "
                    + "(quanta.scheduler.decisions and quanta.cells.inbox need retention.ms=-1)");
        }
        List<Change> changes = new ArrayList<>();
        String current = "";
        for (RecordedDecision d : decisions) {
            SchedulingDecision decision = d.decision();
            if (decision.getType() == DecisionType.CONFIG && !decision.getConfigHash().equals(current)) {
                long from = changes.isEmpty() ? Long.MIN_VALUE : decision.getInboxOffsetTo();
                changes.add(new Change(from, RecordedConfig.of(d)));
                current = decision.getConfigHash();
            }
        }
        return new ConfigTimeline(changes);
    }

    /** The configuration in force at the start. */
    public RecordedConfig initial() {
        return changes.get(0).config();
    }

    /** True when there is no recorded configuration (no decisions). */
    public boolean isEmpty() {
        return changes.isEmpty();
    }
}
