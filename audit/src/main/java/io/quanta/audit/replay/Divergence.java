package io.quanta.audit.replay;

import io.quanta.audit.log.InboxRecord;
import io.quanta.schemas.SchedulingDecision;
import java.util.List;

/**
 * One recorded decision the replay did not reproduce byte for byte.
 *
 * @param index       position in the cell's decision history (0 = the first decision, seq 1)
 * @param trigger     the inbox record the decision was made on (recorded side, else replayed side), or null
 * @param recorded    the recorded decision, null when the replay wrote one more decision than the log holds
 * @param replayed    the replayed decision, null when the replay wrote fewer decisions
 * @param differences the fields that differ (empty when one side is missing)
 */
public record Divergence(long index, InboxRecord trigger, SchedulingDecision recorded, SchedulingDecision replayed,
                         List<DecisionFields.Difference> differences) {

    public Divergence {
        differences = List.copyOf(differences);
    }

    /** True when both sides exist and were made under different configuration hashes. */
    public boolean configMismatch() {
        return recorded != null && replayed != null && !recorded.getConfigHash().equals(replayed.getConfigHash());
    }

    /** True when the only differing field is {@code seq}: a shift left by an earlier divergence. */
    public boolean onlySeqShifted() {
        return differences.size() == 1 && differences.get(0).field().equals("seq");
    }
}
