package io.quanta.sim.report;

import io.quanta.sim.engine.SimulationRun;
import io.quanta.sim.metrics.Summary;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One table comparing runs of several policies on the same trace, with the ratio of each policy's average and p99 JCT
 * to the baseline's ({@code fifo} when it ran, else the first run): below 1 is better than the baseline.
 */
public final class ComparisonTable {

    /** The preferred baseline. */
    public static final String BASELINE = "fifo";

    private static final String[] HEADER = {"policy", "avg JCT s", "x " + "base", "median s", "p95 s", "p99 s",
        "p99 x base", "avg queue s", "makespan s", "alloc %", "useful %", "preempt/job", "migr/job", "unfinished",
        "decisions/s", "wall s"};

    private ComparisonTable() {
    }

    /** The baseline run: {@code fifo} if present, else the first. */
    public static SimulationRun baseline(List<SimulationRun> runs) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("nothing to compare");
        }
        Optional<SimulationRun> fifo = runs.stream().filter(r -> r.label().equals(BASELINE)).findFirst();
        return fifo.orElse(runs.get(0));
    }

    /** The rows, the first being the header, every cell formatted. */
    public static List<String[]> rows(List<SimulationRun> runs) {
        SimulationRun base = baseline(runs);
        Summary b = base.summary();
        List<String[]> rows = new ArrayList<>();
        String[] header = HEADER.clone();
        header[2] = "x " + base.label();
        header[6] = "p99 x " + base.label();
        rows.add(header);
        for (SimulationRun run : runs) {
            Summary s = run.summary();
            rows.add(new String[] {run.label(), Numbers.human(s.avgJct(), 0), Numbers.human(s.avgJct() / b.avgJct(), 3),
                Numbers.human(s.medianJct(), 0), Numbers.human(s.p95Jct(), 0), Numbers.human(s.p99Jct(), 0),
                Numbers.human(s.p99Jct() / b.p99Jct(), 3), Numbers.human(s.avgQueueingDelay(), 0),
                Numbers.human(s.makespan(), 0), Numbers.human(100 * s.utilisationAllocated(), 1),
                Numbers.human(100 * s.utilisationUseful(), 1), Numbers.human(s.preemptionsPerJob(), 3),
                Numbers.human(s.migrationsPerJob(), 3), Integer.toString(s.unfinished()),
                Numbers.human(s.decisionsPerWallSecond(), 0), Numbers.human(s.wallSeconds(), 1)});
        }
        return rows;
    }

    /** The table as aligned text (right-aligned numbers). */
    public static String text(List<SimulationRun> runs) {
        List<String[]> rows = rows(runs);
        int[] width = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                width[i] = Math.max(width[i], row[i].length());
            }
        }
        StringBuilder b = new StringBuilder();
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                String fmt = i == 0 ? "%-" + width[i] + "s" : "  %" + width[i] + "s";
                b.append(String.format(Locale.ROOT, fmt, row[i]));
            }
            b.append('\n');
        }
        return b.toString();
    }

    /** The table as a Markdown table (for docs). */
    public static String markdown(List<SimulationRun> runs) {
        List<String[]> rows = rows(runs);
        StringBuilder b = new StringBuilder();
        for (int r = 0; r < rows.size(); r++) {
            b.append("| ").append(String.join(" | ", rows.get(r))).append(" |\n");
            if (r == 0) {
                b.append("|").append("---|".repeat(rows.get(0).length)).append('\n');
            }
        }
        return b.toString();
    }
}
