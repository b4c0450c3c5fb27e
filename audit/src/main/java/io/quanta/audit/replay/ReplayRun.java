package io.quanta.audit.replay;

import java.util.List;

/**
 * What a replay did: the configurations it ran, the decisions it wrote, and how many inbox records it applied.
 *
 * @param configs          the configurations in force, from the CONFIG records
 * @param decisions        every decision the replayed scheduler wrote, in order
 * @param recordsApplied   inbox records fed to the processor
 * @param recordsSkipped   inbox records of the cell the live scheduler dead-lettered (undecodable, wrong key)
 * @param firstOffset      offset of the first retained inbox record of the cell, -1 when none
 * @param lastOffset       offset of the last inbox record processed, -1 when none
 */
public record ReplayRun(ConfigTimeline configs, List<ReplayedDecision> decisions, long recordsApplied,
                        long recordsSkipped, long firstOffset, long lastOffset) {

    public ReplayRun {
        decisions = List.copyOf(decisions);
    }
}
