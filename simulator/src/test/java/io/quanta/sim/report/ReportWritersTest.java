package io.quanta.sim.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.sim.engine.SimulationRun;
import io.quanta.sim.metrics.InputCounts;
import io.quanta.sim.metrics.JobOutcome;
import io.quanta.sim.metrics.RunStats;
import io.quanta.sim.metrics.TimelineSample;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class ReportWritersTest {

    private static JobOutcome job(String id, double submit, Double start, Double finish) {
        return new JobOutcome(id, "vc", "resnet50", 1, 100, submit,
                start == null ? OptionalDouble.empty() : OptionalDouble.of(start),
                finish == null ? OptionalDouble.empty() : OptionalDouble.of(finish), 1, 0, 1,
                finish == null ? "QUEUED" : "FINISHED",
                start == null ? OptionalDouble.of(0) : OptionalDouble.of(100));
    }

    private static SimulationRun run(String label, double scale) {
        return new SimulationRun(label, List.of(job("a", 0, 0.0, 100 * scale), job("b", 10, 20.5, 300 * scale),
                job("c", 20, null, null)),
                List.of(new TimelineSample(0, 1, 1, 1, 1), new TimelineSample(60, 2, 1.5, 2, 1)),
                new RunStats(8, 400, 300, 2, 10, 50, 20, 0, "all jobs done", InputCounts.NONE), Map.of());
    }

    @Test
    void shouldWriteEmptyCellsForWhatDidNotHappenWhenWritingJobCsv() throws Exception {
        StringWriter out = new StringWriter();
        JobCsvWriter.write(out, run("fifo", 1).outcomes());

        assertThat(out.toString().split("\n")).containsExactly(JobCsvWriter.HEADER,
                "a,vc,resnet50,1,100,0,0,100,100,0,1,0,1,FINISHED,100",
                "b,vc,resnet50,1,100,10,20.5,300,290,10.5,1,0,1,FINISHED,100",
                "c,vc,resnet50,1,100,20,,,,,1,0,1,QUEUED,0");
    }

    @Test
    void shouldGiveRatiosToFifoWhenComparing() {
        List<String[]> rows = ComparisonTable.rows(List.of(run("las", 0.5), run("fifo", 1)));

        assertThat(rows.get(0)[2]).isEqualTo("x fifo");
        assertThat(rows.get(1)[0]).isEqualTo("las");
        // las: (50 + 140) / 2 = 95; fifo: (100 + 290) / 2 = 195
        assertThat(rows.get(1)[1]).isEqualTo("95");
        assertThat(rows.get(1)[2]).isEqualTo("0.487");
        assertThat(rows.get(2)[2]).isEqualTo("1.000");
    }

    @Test
    void shouldRenderASelfContainedReportWithOneCurvePerRun() {
        String html = HtmlReport.render(new HtmlReport.Content("t", Map.of("trace", "x"),
                List.of(run("fifo", 1), run("tiresias-las", 0.5))));

        assertThat(html).startsWith("<!DOCTYPE html>").contains("<svg", "JCT CDF", "Queue length", "tiresias-las")
                .doesNotContain("<script", "src=", "href=", "<link", "@import");
        assertThat(html.split("<polyline", -1)).hasSize(1 + 2 + 4 + 2);
        assertThat(html.split("<polyline[^>]*stroke-dasharray", -1)).as("useful utilisation dashed, one per run")
                .hasSize(3);
    }

    @Test
    void shouldWriteSummaryJsonWithNullForUndefinedFigures() {
        SimulationRun empty = new SimulationRun("fifo", List.of(job("c", 0, null, null)), List.of(),
                new RunStats(8, 0, 0, 0, 0, 0, 0, 0, "stalled", InputCounts.NONE), Map.of());

        String json = SummaryWriter.json(Map.of("policy", "fifo"), empty);

        assertThat(json).contains("\"avg_jct_s\": null", "\"unfinished\": 1", "\"policy\": \"fifo\"",
                "\"stop_reason\": \"stalled\"");
    }

    @Test
    void shouldSayWhereTheFinishedJobsTimeBeyondTheirDurationWentInTheSummary() {
        SimulationRun run = run("fifo", 1);

        // a: no wait, ran its 100 s; b: waited 10.5 s to start, ran 100 s, so 179.5 s without GPUs after its start
        assertThat(run.summary().split().orElseThrow().waitingAfterStart()).isEqualTo(89.75);
        assertThat(run.summary().split().orElseThrow().runningBeyond()).isEqualTo(0);
        assertThat(SummaryWriter.text(Map.of(), run)).contains("avg wait after start:  90 s (suspended, waiting to"
                + " resume)", "avg run over duration: 0 s (packed");
        assertThat(SummaryWriter.json(Map.of(), run)).contains("\"avg_waiting_after_start_s\": 89.75",
                "\"avg_running_beyond_s\": 0");
    }

    @Test
    void shouldPrintPercentJobsSimulatedTimeRateAndEtaInProgressLines() {
        String line = TerminalProgress.line(250, 1000, 90_000, 10, false);

        assertThat(line).contains("25.0%", "250/1,000", "sim 1d01h", "25 jobs/s", "9,000 sim-s/s", "ETA 30s");
    }
}
