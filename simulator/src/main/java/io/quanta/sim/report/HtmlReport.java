package io.quanta.sim.report;

import io.quanta.sim.engine.SimulationRun;
import io.quanta.sim.metrics.JobOutcome;
import io.quanta.sim.metrics.TimelineSample;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A self-contained HTML report of one or more runs on the same workload (no scripts, no network: inline SVG): the
 * facts of the run, the comparison table, the JCT CDF per run (log x), allocated and useful GPU utilisation over
 * time and queue length over time. {@code quanta simulate} writes it; any producer of {@link SimulationRun}s (e.g.
 * a live local cluster) can reuse it.
 */
public final class HtmlReport {

    private static final int MAX_CDF_POINTS = 400;

    /**
     * What to put in a report.
     *
     * @param title page title
     * @param facts lines of context (trace, cluster, mode, seed...) shown as a table
     * @param runs the runs, in display order
     */
    public record Content(String title, Map<String, String> facts, List<SimulationRun> runs) {
        public Content {
            Objects.requireNonNull(title, "title");
            facts = Map.copyOf(facts);
            runs = List.copyOf(runs);
            if (runs.isEmpty()) {
                throw new IllegalArgumentException("a report needs at least one run");
            }
        }
    }

    private HtmlReport() {
    }

    /** Writes the report to {@code file}. */
    public static void write(Path file, String title, Map<String, String> facts, List<SimulationRun> runs) {
        try {
            Files.writeString(file, render(new Content(title, new java.util.TreeMap<>(facts), runs)),
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** The report as one HTML document. */
    public static String render(Content content) {
        StringBuilder b = new StringBuilder();
        b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
                .append(SvgChart.esc(content.title())).append("</title>\n<style>")
                .append("body{font-family:sans-serif;margin:24px;color:#222}table{border-collapse:collapse;"
                        + "margin:12px 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
                        + "td:first-child,th:first-child{text-align:left}th{background:#f3f3f3}"
                        + "figure{margin:16px 0}</style></head><body>\n")
                .append("<h1>").append(SvgChart.esc(content.title())).append("</h1>\n<table>\n");
        new java.util.TreeMap<>(content.facts()).forEach((k, v) -> b.append("<tr><th>").append(SvgChart.esc(k))
                .append("</th><td>").append(SvgChart.esc(v)).append("</td></tr>\n"));
        b.append("</table>\n<h2>Summary</h2>\n<table>\n");
        List<String[]> rows = ComparisonTable.rows(content.runs());
        for (int r = 0; r < rows.size(); r++) {
            String cell = r == 0 ? "th" : "td";
            b.append("<tr>");
            for (String v : rows.get(r)) {
                b.append('<').append(cell).append('>').append(SvgChart.esc(v)).append("</").append(cell).append('>');
            }
            b.append("</tr>\n");
        }
        b.append("</table>\n<h2>Job completion time</h2>\n<figure>").append(cdf(content.runs())).append("</figure>\n");
        b.append("<h2>Over time</h2>\n<figure>").append(utilisation(content.runs())).append("</figure>\n<figure>")
                .append(queue(content.runs())).append("</figure>\n");
        b.append("<p>Times are virtual (simulated) time since the start of the trace. Allocated = GPUs held by at least "
                + "one job; useful = full-speed GPU equivalents of progress (lower when jobs are spread, packed or "
                + "switching).</p>\n</body></html>\n");
        return b.toString();
    }

    private static String cdf(List<SimulationRun> runs) {
        SvgChart chart = new SvgChart("JCT CDF (finished jobs)", "job completion time (s, log scale)",
                "fraction of jobs", true, true);
        for (SimulationRun run : runs) {
            double[] jct = run.outcomes().stream().filter(JobOutcome::finished)
                    .mapToDouble(o -> Math.max(1.0, o.jctSeconds().getAsDouble())).sorted().toArray();
            int n = jct.length;
            int points = Math.min(n, MAX_CDF_POINTS);
            double[] xs = new double[points];
            double[] ys = new double[points];
            for (int i = 0; i < points; i++) {
                int rank = points == n ? i : (int) Math.round((double) i * (n - 1) / Math.max(1, points - 1));
                xs[i] = jct[rank];
                ys[i] = (rank + 1) / (double) n;
            }
            chart.add(new SvgChart.Series(run.label(), xs, ys));
        }
        return chart.render();
    }

    private static String utilisation(List<SimulationRun> runs) {
        SvgChart chart = new SvgChart("GPU utilisation (solid: allocated, dashed: useful)", "time (hours)",
                "fraction of GPUs", false, false);
        for (int i = 0; i < runs.size(); i++) {
            SimulationRun run = runs.get(i);
            double total = run.stats().totalGpus();
            List<TimelineSample> t = run.timeline();
            chart.add(new SvgChart.Series(run.label() + " allocated", hours(t),
                    t.stream().mapToDouble(s -> s.allocatedGpus() / total).toArray(), i, false));
            chart.add(new SvgChart.Series(run.label() + " useful", hours(t),
                    t.stream().mapToDouble(s -> s.usefulGpus() / total).toArray(), i, true));
        }
        return chart.render();
    }

    private static String queue(List<SimulationRun> runs) {
        SvgChart chart = new SvgChart("Queue length (jobs waiting for GPUs)", "time (hours)", "jobs", false, false);
        for (SimulationRun run : runs) {
            List<TimelineSample> t = run.timeline();
            chart.add(new SvgChart.Series(run.label(), hours(t),
                    t.stream().mapToDouble(TimelineSample::queuedJobs).toArray()));
        }
        return chart.render();
    }

    private static double[] hours(List<TimelineSample> t) {
        return t.stream().mapToDouble(s -> s.atSeconds() / 3600.0).toArray();
    }
}
