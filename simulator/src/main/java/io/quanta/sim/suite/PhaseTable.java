package io.quanta.sim.suite;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The runs of one half at several phases of the scheduling quantum ({@code --shifts}), summed up as the rounds of
 * issue 15 judge a candidate since the thirteenth: per run and phase the mean and worst gap closed, the inputs whose
 * p99 is above the baseline's (and, as a reading beside it, on how many the mean of the 1% longest JCTs is) and the
 * preemptions per job; then the score, each input's gap closed averaged over the phases, and each run against
 * {@value #REFERENCE} input by input on those averages ({@link PairedComparison}), and the rounds' rule's verdict on
 * each candidate under this model ({@link RoundRule}). A single phase can favour a policy by chance (a run shifted by
 * a few seconds sees other arrivals together in a pass); the average over phases is steadier.
 */
public final class PhaseTable {

    /** The run the others are compared with: the current default. */
    public static final String REFERENCE = "quanta";

    private PhaseTable() {
    }

    /** One phase: its shift in seconds and its results by input id and label. */
    public record Phase(long shift, Map<String, Map<String, RunResult>> results) {
    }

    /**
     * Each input's gap closed by {@code label} averaged over {@code phases}, in input order; NaN where a phase lacks
     * the run, the baseline, or a defined gap.
     */
    static double[] phaseMeans(List<SuiteInput> inputs, List<Phase> phases, String label) {
        double[] means = new double[inputs.size()];
        for (int i = 0; i < inputs.size(); i++) {
            SuiteInput input = inputs.get(i);
            double sum = 0;
            for (Phase phase : phases) {
                Map<String, RunResult> byLabel = phase.results().getOrDefault(input.id(), Map.of());
                RunResult base = byLabel.get(SuiteTable.BASELINE);
                RunResult run = byLabel.get(label);
                sum += base == null || run == null ? Double.NaN
                        : SuiteTable.gapClosed(base.avgJct(), run.avgJct(), input.floorSeconds());
            }
            means[i] = sum / phases.size();
        }
        return means;
    }

    /**
     * Each input's averaged gap closed by {@code label} minus {@value #REFERENCE}'s ({@link #phaseMeans}), in input
     * order, over the inputs where both are defined: what the score's paired comparison reads.
     */
    static List<Double> differencesFromReference(List<SuiteInput> inputs, List<Phase> phases, String label) {
        return differences(phaseMeans(inputs, phases, label), phaseMeans(inputs, phases, REFERENCE));
    }

    /** {@code means} minus {@code reference}, input by input, over the inputs where both are defined. */
    private static List<Double> differences(double[] means, double[] reference) {
        List<Double> differences = new ArrayList<>();
        for (int i = 0; i < means.length; i++) {
            if (!Double.isNaN(means[i]) && !Double.isNaN(reference[i])) {
                differences.add(means[i] - reference[i]);
            }
        }
        return differences;
    }

    /**
     * The table in Markdown for {@code labels} (the baseline's own row left out): per run and shift, the mean and worst
     * gap closed, the inputs whose p99 is above the baseline's, the preemptions and the paired comparison with
     * {@value #REFERENCE} at that shift; then each run's score over the shifts.
     */
    public static String markdown(String title, List<SuiteInput> inputs, List<Phase> phases, List<String> labels) {
        StringBuilder out = new StringBuilder("# ").append(title).append("\n\n");
        out.append("Gap closed against ").append(SuiteTable.BASELINE).append(" at each shift of the submit times, and")
                .append(" the score: each input's gap closed averaged over the shifts, then over the inputs (")
                .append(inputs.size()).append(" inputs).\n\n");
        out.append("| run | shift s | mean | worst | p99 above ").append(SuiteTable.BASELINE)
                .append("'s (worst ratio) | inputs above | top 1% above (worst ratio) | preempt/job (")
                .append(SuiteTable.BASELINE).append(") | against `").append(REFERENCE).append("` at this shift |\n")
                .append("|---|---|---|---|---|---|---|---|---|\n");
        for (String label : labels) {
            if (label.equals(SuiteTable.BASELINE)) {
                continue;
            }
            for (Phase phase : phases) {
                SuiteTable.Aggregate a = SuiteTable.aggregate(inputs, phase.results(), label);
                if (a.inputs() == 0) {
                    continue;
                }
                String against = label.equals(REFERENCE) ? "" : PairedComparison.of(inputs, phase.results(), label,
                        REFERENCE).map(c -> SuiteTable.points(c.meanDifference()) + " (" + SuiteTable.points(c.low())
                        + " to " + SuiteTable.points(c.high()) + ")").orElse("");
                String top = a.top().map(t -> t.aboveInputs().size() + " (x" + SuiteTable.fixed(t.worstRatio(), 3)
                        + ")").orElse("-");
                out.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %d (x%s) | %s | %s | %s (%s) | %s |%n",
                        label, phase.shift(), pct(a.meanGap()), pct(a.worstGap()), a.p99WorseInputs(),
                        SuiteTable.fixed(a.p99().worstRatio(), 3), String.join(", ", a.p99().aboveInputs()), top,
                        SuiteTable.fixed(a.meanPreemptions(), 3), SuiteTable.fixed(a.meanBaselinePreemptions(), 3),
                        against));
            }
        }
        out.append("\n");
        double[] reference = phaseMeans(inputs, phases, REFERENCE);
        for (String label : labels) {
            if (label.equals(SuiteTable.BASELINE)) {
                continue;
            }
            double[] means = phaseMeans(inputs, phases, label);
            double sum = 0;
            int n = 0;
            double worst = Double.POSITIVE_INFINITY;
            for (double mean : means) {
                if (!Double.isNaN(mean)) {
                    sum += mean;
                    n++;
                    worst = Math.min(worst, mean);
                }
            }
            List<Double> differences = label.equals(REFERENCE) ? List.of() : differences(means, reference);
            if (n == 0) {
                continue;
            }
            out.append(String.format(Locale.ROOT, "- `%s` over %d phases: score %s (worst input %s)", label,
                    phases.size(), pct(sum / n), pct(worst)));
            if (!differences.isEmpty()) {
                PairedComparison c = PairedComparison.of(differences);
                out.append(String.format(Locale.ROOT,
                        "; against `%s` %+.2f points (95%% paired interval %+.2f to %+.2f), ahead on %d, behind on"
                                + " %d of %d inputs", REFERENCE, 100 * c.meanDifference(), 100 * c.low(),
                        100 * c.high(), c.ahead(), c.behind(), c.inputs()));
            }
            out.append("\n");
        }
        if (labels.contains(REFERENCE)) {
            for (String label : labels) {
                if (!label.equals(SuiteTable.BASELINE) && !label.equals(REFERENCE)) {
                    rule(out, label, RoundRule.judge(inputs, phases, label));
                    topPercentReading(out, RoundRule.judge(inputs, phases, label, RoundRule.Tail.TOP_PERCENT));
                    nonInferiority(out, RoundRule.judgeNonInferior(inputs, phases, label));
                }
            }
        }
        return out.toString();
    }

    /** The rounds' rule's verdict on {@code label} under this model ({@link RoundRule}). */
    private static void rule(StringBuilder out, String label, RoundRule.Verdict verdict) {
        out.append("- `").append(label).append("` by the rounds' rule under this model (against `").append(REFERENCE)
                .append("` at every shift): ");
        if (!verdict.judged()) {
            out.append("not judged, a shift lacks its runs, `").append(REFERENCE).append("`'s or ")
                    .append(SuiteTable.BASELINE).append("'s\n");
        } else {
            out.append(outcome(verdict)).append('\n');
        }
    }

    /**
     * The same conditions read with the top percent in place of the p99 rank, under the rule's line (a reading for the
     * team, not the rule); nothing when a phase lacks the figure.
     */
    private static void topPercentReading(StringBuilder out, RoundRule.Verdict verdict) {
        if (!verdict.judged()) {
            return;
        }
        out.append("  - read with the mean of the 1% longest JCTs in place of the p99 rank (a reading, not the rule): ")
                .append(outcome(verdict)).append('\n');
    }

    /**
     * The verdict for non-inferiority, under the rule's line: for a bound or a fix, which must not lose rather than
     * gain ({@link RoundRule#judgeNonInferior}); nothing when a phase lacks its runs.
     */
    private static void nonInferiority(StringBuilder out, RoundRule.Verdict verdict) {
        if (!verdict.judged()) {
            return;
        }
        out.append("  - judged for non-inferiority (for a bound or a fix; over the shifts at most ")
                .append(SuiteTable.points(-RoundRule.NON_INFERIORITY_MARGIN)).append(" points, interval above ")
                .append(SuiteTable.points(-RoundRule.NON_INFERIORITY_FLOOR))
                .append(", the p99 and preemption conditions at every shift): ").append(outcome(verdict)).append('\n');
    }

    /** A judged verdict in words: eligible, or the conditions it fails. */
    private static String outcome(RoundRule.Verdict verdict) {
        return verdict.eligible() ? "meets every condition" : "not eligible: " + String.join("; ", verdict.failures());
    }

    private static String pct(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.2f%%", 100 * v);
    }
}
