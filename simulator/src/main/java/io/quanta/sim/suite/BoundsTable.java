package io.quanta.sim.suite;

import static io.quanta.sim.suite.SuiteTable.BASELINE;
import static io.quanta.sim.suite.SuiteTable.fixed;
import static io.quanta.sim.suite.SuiteTable.gapClosed;
import static io.quanta.sim.suite.SuiteTable.grouped;
import static io.quanta.sim.suite.SuiteTable.percent;

import java.util.List;
import java.util.Map;

/**
 * How much of the gap any schedule can close, half by half: per input the floor, the {@link AverageJctBound}, the
 * {@link IdealSchedule}, the baseline's and {@value #RUN}'s average JCT when there are runs, the gap each closes
 * ((baseline - x) / (baseline - floor); the bound's is the most any schedule can close on the input) and
 * {@value #RUN}'s <b>share of the achievable gap</b> = (baseline - run) / (baseline - bound); then mean and worst.
 */
public final class BoundsTable {

    /** The run whose share of the achievable gap is shown. */
    public static final String RUN = "quanta";

    private BoundsTable() {
    }

    /** Mean and least of values by input, NaN values left out. */
    record MeanWorst(int count, double mean, double worst, String worstInput) {
        static final MeanWorst NONE = new MeanWorst(0, Double.NaN, Double.NaN, "");

        MeanWorst add(String input, double v) {
            if (Double.isNaN(v)) {
                return this;
            }
            double sum = count == 0 ? v : mean * count + v;
            boolean least = count == 0 || v < worst;
            return new MeanWorst(count + 1, sum / (count + 1), least ? v : worst, least ? input : worstInput);
        }
    }

    /** The whole table in Markdown, one section per half that has inputs (bounds-only mode). */
    public static String markdown(String title, List<SuiteInput> inputs, Map<String, InputBounds> bounds,
                                  Map<String, Map<String, RunResult>> results) {
        StringBuilder out = new StringBuilder("# ").append(title).append("\n");
        for (Half half : Half.values()) {
            List<SuiteInput> part = inputs.stream().filter(i -> i.half() == half).toList();
            if (!part.isEmpty()) {
                out.append("\n## ").append(half.label()).append(" half (").append(part.size()).append(" inputs)\n\n");
                half(out, part, bounds, results);
            }
        }
        return out.toString();
    }

    /** The table of one half's inputs, its mean and worst rows and a summary line. */
    static void half(StringBuilder out, List<SuiteInput> inputs, Map<String, InputBounds> bounds,
                     Map<String, Map<String, RunResult>> results) {
        double factor = inputs.stream().map(i -> bounds.get(i.id())).filter(b -> b != null)
                .mapToDouble(InputBounds::capacityFactor).findFirst().orElse(Double.NaN);
        out.append("Bound: no schedule averages less (AverageJctBound: the GPUs as one pool, each job at most its own"
                + " GPUs at its least spread placement's speed, each GPU at its best pack's speed, at most ")
                .append(fixed(factor, 2)).append(" with ").append(PackingGain.DEFAULT_JOBS_PER_GPU)
                .append(" jobs). Ideal: clairvoyant, shortest remaining duration first, whole gangs at their least"
                        + " spread placement's speed, no other placement, packing or switch cost. Gap"
                        + " closed = (").append(BASELINE).append(" - x) / (").append(BASELINE)
                .append(" - floor); the bound's is the most any schedule can close. Share = (").append(BASELINE)
                .append(" - ").append(RUN).append(") / (").append(BASELINE).append(" - bound). Seconds.\n\n");
        out.append(row(List.of("input", "cluster", "floor s", "bound s", "ideal s", BASELINE + " avg s", RUN + " avg s",
                "bound gap closed", "ideal gap closed", RUN + " gap closed", RUN + " share of achievable")))
                .append("\n|---|---|---|---|---|---|---|---|---|---|---|\n");
        MeanWorst bound = MeanWorst.NONE;
        MeanWorst ideal = MeanWorst.NONE;
        MeanWorst run = MeanWorst.NONE;
        MeanWorst share = MeanWorst.NONE;
        for (SuiteInput input : inputs) {
            InputBounds b = bounds.get(input.id());
            Map<String, RunResult> byLabel = results.getOrDefault(input.id(), Map.of());
            double las = avg(byLabel.get(BASELINE));
            double q = avg(byLabel.get(RUN));
            double floor = input.floorSeconds();
            double boundGap = b == null ? Double.NaN : gapClosed(las, b.bound(), floor);
            double idealGap = b == null ? Double.NaN : gapClosed(las, b.ideal(), floor);
            double runGap = gapClosed(las, q, floor);
            double runShare = b == null ? Double.NaN : gapClosed(las, q, b.bound());
            bound = bound.add(input.id(), boundGap);
            ideal = ideal.add(input.id(), idealGap);
            run = run.add(input.id(), runGap);
            share = share.add(input.id(), runShare);
            List<String> cells = List.of(input.id(), input.cluster() + " (" + input.cluster().totalGpus() + ")",
                    grouped(floor), b == null ? "" : grouped(b.bound()), b == null ? "" : grouped(b.ideal()),
                    cell(las, grouped(las)), cell(q, grouped(q)), cell(las, percent(boundGap)),
                    cell(las, percent(idealGap)), cell(q, percent(runGap)), cell(q, percent(runShare)));
            out.append(row(cells)).append('\n');
        }
        out.append(summary("**mean**", bound.mean(), ideal.mean(), run.mean(), share.mean())).append('\n');
        out.append(summary("**worst**", bound.worst(), ideal.worst(), run.worst(), share.worst())).append("\n\n");
        if (bound.count() > 0) {
            out.append("- over ").append(bound.count()).append(" inputs no schedule closes more than ")
                    .append(percent(bound.mean())).append(" of the gap on average and ").append(percent(bound.worst()))
                    .append(" on the worst input (").append(bound.worstInput()).append("); the ideal schedule closes ")
                    .append(percent(ideal.mean())).append(", worst ").append(percent(ideal.worst())).append(" (")
                    .append(ideal.worstInput()).append(")");
            if (share.count() > 0) {
                out.append("; `").append(RUN).append("` closes ").append(percent(run.mean())).append(", its share of")
                        .append(" the achievable gap mean ").append(percent(share.mean())).append(", worst ")
                        .append(percent(share.worst())).append(" (").append(share.worstInput()).append(")");
            }
            out.append('\n');
        }
    }

    private static double avg(RunResult r) {
        return r == null ? Double.NaN : r.avgJct();
    }

    /** A mean or worst row: the four gap figures under their columns. */
    private static String summary(String name, double bound, double ideal, double run, double share) {
        return row(List.of(name, "", "", "", "", "", "", percent(bound), percent(ideal), percent(run), percent(share)));
    }

    /** A Markdown row; an empty cell is one space wide, as in {@link SuiteTable}. */
    private static String row(List<String> cells) {
        StringBuilder out = new StringBuilder("|");
        cells.forEach(c -> out.append(c.isEmpty() ? " |" : " " + c + " |"));
        return out.toString();
    }

    /** {@code text}, or nothing when the run it depends on is missing ({@code figure} NaN). */
    private static String cell(double figure, String text) {
        return Double.isNaN(figure) ? "" : text;
    }
}
