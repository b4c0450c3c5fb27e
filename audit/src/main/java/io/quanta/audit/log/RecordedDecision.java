package io.quanta.audit.log;

import io.quanta.schemas.SchedulingDecision;
import java.util.Objects;

/**
 * One record of the decision audit log ({@code quanta.scheduler.decisions}) as it was written.
 *
 * @param offset      offset in the decisions partition (in an export file: its position in that partition)
 * @param timestampMs record timestamp, epoch milliseconds
 * @param decision    the decoded decision
 */
public record RecordedDecision(long offset, long timestampMs, SchedulingDecision decision) {

    public RecordedDecision {
        Objects.requireNonNull(decision, "decision");
    }
}
