package io.quanta.audit.replay;

import io.quanta.audit.log.InboxRecord;
import io.quanta.schemas.SchedulingDecision;

/**
 * A decision the replayed scheduler wrote, with the inbox record it was processing.
 *
 * @param trigger  the inbox record being processed
 * @param decision the decision
 */
public record ReplayedDecision(InboxRecord trigger, SchedulingDecision decision) {
}
