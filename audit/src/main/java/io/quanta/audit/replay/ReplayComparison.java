package io.quanta.audit.replay;

import io.quanta.audit.log.CellLog;
import io.quanta.audit.log.InboxRecord;
import io.quanta.audit.log.RecordedDecision;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.streams.SoftwareVersion;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Compares a replay with the recorded decisions, one by one in history order (decision {@code i} of the log with
 * decision {@code i} of the replay). After a first divergence the two histories usually differ everywhere (sequence
 * numbers shift, states drift): the first divergence is the one to read.
 */
public final class ReplayComparison {

    private ReplayComparison() {
    }

    /**
     * @param log            the recorded log
     * @param run            the replay of it
     * @param window         which decisions to compare
     * @param source         where the log was read, for the report
     * @param keepDivergences how many divergences to keep in detail
     */
    public static ReplayReport compare(CellLog log, ReplayRun run, ReplayWindow window, String source,
                                       int keepDivergences) {
        Map<Long, InboxRecord> inboxByOffset = new HashMap<>();
        log.inbox().forEach(r -> inboxByOffset.put(r.offset(), r));
        List<RecordedDecision> recorded = log.decisions();
        long horizon = recorded.isEmpty() ? -1 : recorded.get(recorded.size() - 1).decision().getInboxOffsetTo();
        List<ReplayedDecision> replayed = run.decisions().stream()
                .filter(d -> d.trigger().offset() <= horizon).toList();
        long unconfirmed = run.decisions().size() - replayed.size();
        long compared = 0;
        long reproduced = 0;
        List<Divergence> divergences = new ArrayList<>();
        int n = Math.max(recorded.size(), replayed.size());
        for (int i = 0; i < n; i++) {
            SchedulingDecision r = i < recorded.size() ? recorded.get(i).decision() : null;
            ReplayedDecision a = i < replayed.size() ? replayed.get(i) : null;
            SchedulingDecision place = r != null ? r : a.decision();
            if (!window.includes(place.getInboxOffsetTo(), place.getStreamTime().toEpochMilli())) {
                continue;
            }
            compared++;
            if (r != null && a != null && DecisionFields.identical(r, a.decision())) {
                reproduced++;
            } else if (divergences.size() < keepDivergences) {
                InboxRecord trigger = r != null ? inboxByOffset.get(r.getInboxOffsetTo()) : a.trigger();
                divergences.add(new Divergence(i, trigger, r, a == null ? null : a.decision(),
                        r != null && a != null ? DecisionFields.differences(r, a.decision()) : List.of()));
            }
        }
        return new ReplayReport(log.cellId(), source, window, run, compared, reproduced, compared - reproduced,
                unconfirmed, divergences, notes(run));
    }

    private static List<String> notes(ReplayRun run) {
        List<String> notes = new ArrayList<>();
        String current = SoftwareVersion.current();
        run.configs().changes().stream().map(c -> c.config().softwareVersion()).distinct()
                .filter(v -> !v.equals(current))
                .forEach(v -> notes.add("decisions were recorded by version " + v + " and replayed by version "
                        + current + ": a code change between them can explain a divergence"));
        if (run.recordsSkipped() > 0) {
            notes.add(run.recordsSkipped() + " inbox records of the cell were not applied: the live scheduler "
                    + "dead-lettered them too (undecodable, or addressed to another cell)");
        }
        return notes;
    }
}
