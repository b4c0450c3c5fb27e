package io.quanta.audit.log;

import java.util.List;
import java.util.Objects;

/**
 * Everything the audit needs about one cell: its inbox records and its recorded decisions, each in log order, and
 * where they were read from. The inbox holds every record of the cell's inbox partition keyed by the cell (other
 * cells sharing the partition are left out; their offsets are why a cell's offsets have gaps).
 *
 * @param cellId             the cell
 * @param inboxTopic         name of the inbox topic
 * @param inboxPartition     the partition holding the cell's inbox records
 * @param inbox              the cell's inbox records, by offset
 * @param decisionsTopic     name of the decisions topic
 * @param decisionsPartition the partition holding the cell's decisions
 * @param decisions          the cell's recorded decisions, by offset
 */
public record CellLog(String cellId, String inboxTopic, int inboxPartition, List<InboxRecord> inbox,
                      String decisionsTopic, int decisionsPartition, List<RecordedDecision> decisions) {

    public CellLog {
        Objects.requireNonNull(cellId, "cellId");
        inbox = List.copyOf(inbox);
        decisions = List.copyOf(decisions);
    }

    /** True when nothing was found for the cell. */
    public boolean isEmpty() {
        return inbox.isEmpty() && decisions.isEmpty();
    }

    /** Offset of the first retained inbox record of the cell, or -1 when none. */
    public long firstInboxOffset() {
        return inbox.isEmpty() ? -1 : inbox.get(0).offset();
    }
}
