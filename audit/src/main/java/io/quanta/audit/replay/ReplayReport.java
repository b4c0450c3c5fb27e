package io.quanta.audit.replay;

import java.util.List;

/**
 * The outcome of an audit replay of one cell.
 *
 * @param cellId         the cell
 * @param source         where the log was read
 * @param window         what was compared
 * @param run            what the replay did
 * @param compared       decisions compared (recorded or replayed, within the window)
 * @param reproduced     compared decisions reproduced byte for byte
 * @param diverged       compared decisions that differ or exist on one side only
 * @param unconfirmed    decisions replayed on inbox records after the last one the log has a decision for: the live
 *                       scheduler had not decided on them when the log was read (or decided nothing); not compared
 * @param divergences    the first divergences, in history order (at most the limit the comparison was given)
 * @param notes          things the reader should know (software version differs, records skipped...)
 */
public record ReplayReport(String cellId, String source, ReplayWindow window, ReplayRun run, long compared,
                           long reproduced, long diverged, long unconfirmed, List<Divergence> divergences,
                           List<String> notes) {

    public ReplayReport {
        divergences = List.copyOf(divergences);
        notes = List.copyOf(notes);
    }

    /** True when every compared decision was reproduced (and at least the log was readable). */
    public boolean allReproduced() {
        return diverged == 0;
    }
}
