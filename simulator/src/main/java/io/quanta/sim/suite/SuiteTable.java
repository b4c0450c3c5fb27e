package io.quanta.sim.suite;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The suite's table, half by half: per input each run's average JCT and p99 (with their ratio to the baseline's),
 * preemptions per job and <b>gap closed</b> = (baseline - run) / (baseline - floor), where the baseline is
 * {@code tiresias-las} and the floor the input's mean service; then the mean and the worst over the half's inputs,
 * and a summary per run against the baseline; when the current default ({@value #DEFAULT_LABEL}) ran, each other
 * candidate against it input by input ({@link PairedComparison}).
 */
public final class SuiteTable {

    /** The label every run is compared with. */
    public static final String BASELINE = "tiresias-las";
    /** The label of the current default, which every other candidate is also compared with input by input. */
    public static final String DEFAULT_LABEL = "quanta";

    private SuiteTable() {
    }

    /** Gap closed by {@code avg} between {@code baseline} and {@code floor}; NaN when the baseline is at the floor. */
    public static double gapClosed(double baseline, double avg, double floor) {
        double gap = baseline - floor;
        return gap > 1e-9 * Math.max(1, floor) ? (baseline - avg) / gap : Double.NaN;
    }

    /**
     * How far a p99 may lie above the baseline's and still count as not above it: one second. The traces give
     * submit times and durations in whole seconds, and the simulated job runner rounds each finish time up to the
     * next millisecond whenever a job's speed changes, so a job packed with a partner that does not slow it at all
     * can finish a few milliseconds after the same job alone (`w00-moderate`: 1 ms). Such a difference is not a
     * difference of the schedule; the smallest p99 excess the rounds reported was about a minute.
     */
    public static final double P99_RESOLUTION_S = 1.0;

    /** True when {@code p99} is above {@code baselineP99} by more than {@link #P99_RESOLUTION_S}. */
    public static boolean p99Above(double p99, double baselineP99) {
        return p99 > baselineP99 + P99_RESOLUTION_S;
    }

    /**
     * Aggregates of one run label over the inputs of one half.
     *
     * @param inputs inputs with a result for the label and the baseline
     * @param meanGap mean gap closed (inputs where it is defined)
     * @param worstGap least gap closed
     * @param worstGapInput the input of the least gap closed
     * @param meanP99Ratio mean of p99 / baseline p99
     * @param p99 the p99 against the baseline's: the inputs where it is above ({@link #p99Above}), in input order, and
     *     the largest ratio with its input
     * @param meanPreemptions mean preemptions per job
     * @param meanBaselinePreemptions the baseline's mean preemptions per job over the same inputs
     * @param spreadGangs multi-GPU jobs that ran spread, summed
     * @param baselineSpreadGangs the same for the baseline
     * @param unfinished unfinished jobs, summed
     * @param top the mean JCT of the 1% longest jobs against the baseline's, empty unless every input has it for
     *     both runs
     */
    public record Aggregate(int inputs, double meanGap, double worstGap, String worstGapInput, double meanP99Ratio,
                            TailAbove p99, double meanPreemptions, double meanBaselinePreemptions, int spreadGangs,
                            int baselineSpreadGangs, int unfinished, Optional<TailAbove> top) {

        /** Number of inputs where p99 is above the baseline's. */
        public int p99WorseInputs() {
            return p99.aboveInputs().size();
        }
    }

    /**
     * One measure of the tail against the baseline's: the p99 ({@link Aggregate#p99}) or the mean JCT of each input's
     * 1% longest jobs, the reading beside the p99's one rank ({@link Aggregate#top}, {@link RunResult#topPercentJct});
     * above counts as for the p99 ({@link #p99Above}).
     *
     * @param aboveInputs the inputs where it is above the baseline's, in input order
     * @param worstRatio the largest ratio to the baseline's
     * @param worstInput its input
     */
    public record TailAbove(List<String> aboveInputs, double worstRatio, String worstInput) {

        public TailAbove {
            aboveInputs = List.copyOf(aboveInputs);
        }
    }

    /** Counts one tail measure input by input into a {@link TailAbove}. */
    private static final class TailTally {

        private final List<String> above = new ArrayList<>();
        private double worstRatio = Double.NEGATIVE_INFINITY;
        private String worstInput = "";

        void add(String input, double value, double baseline) {
            double ratio = value / baseline;
            if (ratio > worstRatio) {
                worstRatio = ratio;
                worstInput = input;
            }
            if (p99Above(value, baseline)) {
                above.add(input);
            }
        }

        /** The tally; its worst ratio NaN when nothing was added. */
        TailAbove result() {
            return new TailAbove(above, worstInput.isEmpty() ? Double.NaN : worstRatio, worstInput);
        }
    }

    /** Aggregates {@code label} over {@code inputs} (those with results for it and the baseline). */
    public static Aggregate aggregate(List<SuiteInput> inputs, Map<String, Map<String, RunResult>> results,
                                      String label) {
        int n = 0;
        int gaps = 0;
        double gapSum = 0;
        double worstGap = Double.POSITIVE_INFINITY;
        String worstGapInput = "";
        double ratioSum = 0;
        TailTally p99 = new TailTally();
        double pre = 0;
        double basePre = 0;
        int spread = 0;
        int baseSpread = 0;
        int unfinished = 0;
        TailTally top = new TailTally();
        boolean topKnown = true;
        for (SuiteInput input : inputs) {
            Map<String, RunResult> byLabel = results.get(input.id());
            if (byLabel == null || !byLabel.containsKey(label) || !byLabel.containsKey(BASELINE)) {
                continue;
            }
            RunResult r = byLabel.get(label);
            RunResult base = byLabel.get(BASELINE);
            n++;
            double gap = gapClosed(base.avgJct(), r.avgJct(), input.floorSeconds());
            if (!Double.isNaN(gap)) {
                gaps++;
                gapSum += gap;
                if (gap < worstGap) {
                    worstGap = gap;
                    worstGapInput = input.id();
                }
            }
            ratioSum += r.p99Jct() / base.p99Jct();
            p99.add(input.id(), r.p99Jct(), base.p99Jct());
            if (Double.isNaN(r.topPercentJct()) || Double.isNaN(base.topPercentJct())) {
                topKnown = false;
            } else {
                top.add(input.id(), r.topPercentJct(), base.topPercentJct());
            }
            pre += r.preemptionsPerJob();
            basePre += base.preemptionsPerJob();
            spread += r.spreadGangs();
            baseSpread += base.spreadGangs();
            unfinished += r.unfinished();
        }
        return new Aggregate(n, gaps == 0 ? Double.NaN : gapSum / gaps, gaps == 0 ? Double.NaN : worstGap,
                worstGapInput, n == 0 ? Double.NaN : ratioSum / n, p99.result(), n == 0 ? Double.NaN : pre / n,
                n == 0 ? Double.NaN : basePre / n, spread, baseSpread, unfinished,
                topKnown && n > 0 ? Optional.of(top.result()) : Optional.empty());
    }

    /** The whole table in Markdown: one section per half that has inputs. */
    public static String markdown(String title, List<SuiteInput> inputs, Map<String, Map<String, RunResult>> results,
                                  List<String> labels) {
        return markdown(title, inputs, results, labels, Map.of());
    }

    /**
     * The whole table in Markdown, each half followed by its {@link BoundsTable} when {@code bounds} (by input id) is
     * not empty, and by its {@link TimeSplitTable} when a run's split is known on all its inputs.
     */
    public static String markdown(String title, List<SuiteInput> inputs, Map<String, Map<String, RunResult>> results,
                                  List<String> labels, Map<String, InputBounds> bounds) {
        StringBuilder out = new StringBuilder();
        out.append("# ").append(title).append("\n\n");
        out.append("Gap closed = (").append(BASELINE).append(" - run) / (").append(BASELINE)
                .append(" - floor), floor = the input's mean service. Ratios in brackets are to ").append(BASELINE)
                .append(". Seconds.\n");
        for (Half half : Half.values()) {
            List<SuiteInput> part = inputs.stream().filter(i -> i.half() == half).toList();
            if (!part.isEmpty()) {
                out.append('\n');
                half(out, half, part, results, labels);
                if (!bounds.isEmpty()) {
                    out.append("\n### ").append(half.label())
                            .append(" half: how much of the gap any schedule can close\n\n");
                    BoundsTable.half(out, part, bounds, results);
                }
                TimeSplitTable.half(out, half, part, results, labels);
            }
        }
        return out.toString();
    }

    private static void half(StringBuilder out, Half half, List<SuiteInput> inputs,
                             Map<String, Map<String, RunResult>> results, List<String> labels) {
        out.append("## ").append(half.label()).append(" half (").append(inputs.size()).append(" inputs)\n\n");
        StringBuilder head = new StringBuilder("| input | cluster | fifo queue / service | floor s |");
        StringBuilder rule = new StringBuilder("|---|---|---|---|");
        for (String label : labels) {
            head.append(' ').append(label).append(" avg s | p99 s | preempt/job | gap closed |");
            rule.append("---|---|---|---|");
        }
        out.append(head).append('\n').append(rule).append('\n');
        for (SuiteInput input : inputs) {
            Map<String, RunResult> byLabel = results.getOrDefault(input.id(), Map.of());
            RunResult base = byLabel.get(BASELINE);
            out.append("| ").append(input.id()).append(" | ").append(input.cluster()).append(" (")
                    .append(input.cluster().totalGpus()).append(") | ").append(fixed(input.fifoRatio(), 2))
                    .append(" | ").append(grouped(input.floorSeconds())).append(" |");
            for (String label : labels) {
                RunResult r = byLabel.get(label);
                if (r == null) {
                    out.append(" | | | |");
                    continue;
                }
                boolean compared = base != null && !label.equals(BASELINE);
                out.append(' ').append(grouped(r.avgJct()))
                        .append(compared ? " (" + fixed(r.avgJct() / base.avgJct(), 2) + ")" : "")
                        .append(r.unfinished() > 0 ? " [" + r.unfinished() + " unfinished]" : "").append(" | ")
                        .append(grouped(r.p99Jct()))
                        .append(compared ? " (" + fixed(r.p99Jct() / base.p99Jct(), 2) + ")" : "").append(" | ")
                        .append(fixed(r.preemptionsPerJob(), 2)).append(" | ")
                        .append(base == null ? "" : percent(gapClosed(base.avgJct(), r.avgJct(), input.floorSeconds())))
                        .append(" |");
            }
            out.append('\n');
        }
        List<Aggregate> aggregates = new ArrayList<>();
        for (String label : labels) {
            aggregates.add(aggregate(inputs, results, label));
        }
        out.append("| **mean** | | | |");
        for (Aggregate a : aggregates) {
            out.append(" | (").append(fixed(a.meanP99Ratio(), 2)).append(") | ").append(fixed(a.meanPreemptions(), 2))
                    .append(" | ").append(percent(a.meanGap())).append(" |");
        }
        out.append("\n| **worst** | | | |");
        for (Aggregate a : aggregates) {
            out.append(" | (").append(fixed(a.p99().worstRatio(), 2)).append(") | | ").append(percent(a.worstGap()))
                    .append(" |");
        }
        out.append("\n\n");
        for (int i = 0; i < labels.size(); i++) {
            String label = labels.get(i);
            Aggregate a = aggregates.get(i);
            if (label.equals(BASELINE) || a.inputs() == 0) {
                continue;
            }
            out.append("- `").append(label).append("` over ").append(a.inputs()).append(" inputs: gap closed mean ")
                    .append(percent(a.meanGap())).append(", worst ").append(percent(a.worstGap())).append(" (")
                    .append(a.worstGapInput()).append("); p99 above ").append(BASELINE).append("'s on ")
                    .append(a.p99WorseInputs()).append(" inputs, worst x").append(fixed(a.p99().worstRatio(), 3))
                    .append(" (").append(a.p99().worstInput()).append(")").append(a.top().map(t -> "; the mean of the"
                            + " 1% longest JCTs above " + BASELINE + "'s on " + t.aboveInputs().size() + " inputs,"
                            + " worst x" + fixed(t.worstRatio(), 3) + " (" + t.worstInput() + ")").orElse(""))
                    .append("; preemptions per job ")
                    .append(fixed(a.meanPreemptions(), 3)).append(" against ")
                    .append(fixed(a.meanBaselinePreemptions(), 3))
                    .append("; spread gangs ").append(a.spreadGangs()).append(" against ")
                    .append(a.baselineSpreadGangs()).append("; unfinished ").append(a.unfinished()).append('\n');
        }
        if (labels.contains(DEFAULT_LABEL)) {
            for (String label : labels) {
                if (!label.equals(BASELINE) && !label.equals(DEFAULT_LABEL)) {
                    PairedComparison.of(inputs, results, label, DEFAULT_LABEL)
                            .ifPresent(c -> paired(out, label, c));
                }
            }
        }
    }

    private static void paired(StringBuilder out, String label, PairedComparison c) {
        out.append("- `").append(label).append("` against `").append(DEFAULT_LABEL)
                .append("`, input by input: gap closed ").append(points(c.meanDifference()))
                .append(" points on average (95% paired bootstrap interval ")
                .append(points(c.low())).append(" to ").append(points(c.high())).append("), ahead on ")
                .append(c.ahead()).append(" and behind on ").append(c.behind()).append(" of ").append(c.inputs())
                .append(" inputs\n");
    }

    static String points(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%+.1f", 100 * v);
    }

    static String percent(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.1f%%", 100 * v);
    }

    static String fixed(double v, int decimals) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    static String grouped(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%,.0f", v);
    }
}
