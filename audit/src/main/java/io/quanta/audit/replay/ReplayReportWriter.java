package io.quanta.audit.replay;

import io.quanta.schemas.GpuRef;
import io.quanta.schemas.SchedulingDecision;
import java.io.PrintStream;
import java.util.List;
import java.util.stream.Collectors;

/** Renders a {@link ReplayReport} as text for a terminal. */
public final class ReplayReportWriter {

    private ReplayReportWriter() {
    }

    /** Writes the report; {@code shown} limits the divergences printed in detail. */
    public static void write(ReplayReport report, PrintStream out, int shown) {
        ReplayRun run = report.run();
        out.println("audit replay of cell " + report.cellId() + " (" + report.source() + "), " + report.window());
        out.println("state rebuilt from the beginning of the retained inbox (offset " + run.firstOffset() + "): "
                + run.recordsApplied() + " inbox records replayed, up to offset " + run.lastOffset());
        for (ConfigTimeline.Change c : run.configs().changes()) {
            out.println("configuration " + c.config().describe() + (c.fromOffset() == Long.MIN_VALUE
                    ? " from the start" : " from inbox offset " + c.fromOffset()));
        }
        report.notes().forEach(n -> out.println("note: " + n));
        if (report.unconfirmed() > 0) {
            out.println("note: " + report.unconfirmed() + " decisions replayed on inbox records after the last "
                    + "recorded decision were not compared (the scheduler had not decided on them when the log was "
                    + "read, or decided nothing)");
        }
        out.println(report.reproduced() + " decisions reproduced, " + report.diverged() + " diverged");
        List<Divergence> divergences = report.divergences();
        for (int i = 0; i < Math.min(shown, divergences.size()); i++) {
            divergence(i + 1, divergences.get(i), out);
        }
        if (report.diverged() > Math.min(shown, divergences.size())) {
            out.println("(" + (report.diverged() - Math.min(shown, divergences.size()))
                    + " more divergences not shown; after the first one the histories usually differ everywhere)");
        }
    }

    private static void divergence(int n, Divergence d, PrintStream out) {
        SchedulingDecision r = d.recorded();
        SchedulingDecision a = d.replayed();
        long seq = r != null ? r.getSeq() : a.getSeq();
        out.println();
        out.println("divergence " + n + ": decision #" + (d.index() + 1) + " (seq " + seq + ")");
        out.println("  inbox record: " + (d.trigger() == null ? "(not in the retained inbox)" : d.trigger().describe()));
        out.println("  recorded: " + (r == null ? "(none: the replay wrote a decision the log does not have)"
                : line(r)));
        out.println("  replayed: " + (a == null ? "(none: the replay did not write this decision)" : line(a)));
        if (!d.differences().isEmpty()) {
            out.println("  fields that differ:");
            d.differences().forEach(f -> out.println("    " + f));
        }
        if (d.configMismatch()) {
            out.println("  CONFIGURATION MISMATCH: the recorded decision was made under configuration hash "
                    + r.getConfigHash() + ", the replay ran " + a.getConfigHash()
                    + " (the one the CONFIG records say was in force)");
        } else if (r != null && a != null && !d.onlySeqShifted()) {
            out.println("  both made under the recorded configuration " + r.getConfigHash() + ": an inbox record "
                    + "was altered, the configuration changed without a CONFIG record, or the scheduler is not "
                    + "deterministic");
        }
    }

    /** One decision on one line: type, job, GPUs, config hash and reason. */
    public static String line(SchedulingDecision d) {
        StringBuilder s = new StringBuilder();
        s.append(d.getType());
        if (d.getJobId() != null) {
            s.append(" job ").append(d.getJobId()).append(" attempt ").append(d.getAttempt());
        }
        if (!d.getGpus().isEmpty()) {
            s.append(" on ").append(gpus(d.getGpus()));
        }
        if (!d.getFromGpus().isEmpty()) {
            s.append(" from ").append(gpus(d.getFromGpus()));
        }
        s.append(" at ").append(d.getStreamTime()).append(" [config ").append(d.getConfigHash()).append("]");
        s.append(" reason: ").append(d.getReason());
        return s.toString();
    }

    /** E.g. {@code n1:0,1 n2:0,1}. */
    public static String gpus(List<GpuRef> gpus) {
        return gpus.stream().collect(Collectors.groupingBy(GpuRef::getNodeId, java.util.TreeMap::new,
                        Collectors.mapping(g -> Integer.toString(g.getIndex()), Collectors.joining(","))))
                .entrySet().stream().map(e -> e.getKey() + ":" + e.getValue()).collect(Collectors.joining(" "));
    }
}
