package io.quanta.audit.trace;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.audit.log.CellLog;
import io.quanta.audit.testing.SimulatedLogs;
import io.quanta.sim.trace.Trace;
import io.quanta.sim.trace.TraceJob;
import io.quanta.sim.trace.TraceLoader;
import java.io.StringWriter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class TraceExporterTest {

    private static final Trace SUBMITTED = SimulatedLogs.contended(100, 240, 7);
    /** Seconds a resumed attempt may spend restoring its checkpoint (simulated nodes: at most about 20 s). */
    private static final long RESUME_SLACK = 30;

    private static List<TraceRow> rows() {
        CellLog log = SimulatedLogs.shared("tiresias-las", 100);
        return TraceExporter.rows(List.of(log), Optional.empty(), Optional.empty());
    }

    @Test
    void shouldGiveEveryCompletedJobItsSubmittedGpusAndItsFullSpeedServiceWhenTelemetryFlowed() {
        Map<String, TraceJob> submitted = SUBMITTED.jobs().stream()
                .collect(Collectors.toMap(TraceJob::jobId, Function.identity()));

        List<TraceRow> rows = rows();

        assertThat(rows).hasSize(SUBMITTED.size());
        assertThat(rows).allMatch(r -> r.status().equals("SUCCEEDED"));
        for (TraceRow r : rows) {
            TraceJob job = submitted.get(r.jobId());
            assertThat(r.numGpus()).isEqualTo(job.numGpus());
            assertThat(r.tenant()).isEqualTo(job.tenant());
            assertThat(r.observedRunSeconds()).isGreaterThanOrEqualTo(r.fullSpeedSeconds() - 1);
            if (r.source().equals("telemetry")) {
                // never less than the work; more by at most the resume costs the sparse telemetry cannot see
                assertThat(r.durationSeconds()).isBetween(job.durationSeconds(), job.durationSeconds() + RESUME_SLACK);
            }
        }
        assertThat(rows).anyMatch(r -> r.source().equals("telemetry"));
    }

    @Test
    void shouldWriteACsvTheSimulatorLoadsWithSubmitTimesRebasedToTheFirstJob() {
        StringWriter csv = new StringWriter();

        TraceExporter.writeCsv(rows(), csv);

        Trace loaded = TraceLoader.parse("exported", csv.toString());
        assertThat(csv.toString()).startsWith("job_id,submit_time_s,num_gpus,duration_s,status,user,virtual_cluster");
        assertThat(loaded.jobs()).extracting(TraceJob::jobId)
                .containsExactlyElementsOf(SUBMITTED.jobs().stream().map(TraceJob::jobId).toList());
        long shift = SUBMITTED.jobs().get(0).submitSeconds();
        for (int i = 0; i < loaded.size(); i++) {
            assertThat(loaded.jobs().get(i).submitSeconds()).isEqualTo(SUBMITTED.jobs().get(i).submitSeconds() - shift);
            assertThat(loaded.jobs().get(i).numGpus()).isEqualTo(SUBMITTED.jobs().get(i).numGpus());
        }
    }

    @Test
    void shouldKeepOnlyTheJobsSubmittedInTheWindowWhenFromAndToAreGiven() {
        List<TraceRow> all = rows();
        Instant from = all.get(10).submittedAt();
        Instant to = all.get(19).submittedAt();

        List<TraceRow> some = TraceExporter.rows(List.of(SimulatedLogs.shared("tiresias-las", 100)),
                Optional.of(from), Optional.of(to));

        assertThat(some).extracting(TraceRow::jobId).containsExactlyElementsOf(
                all.stream().filter(r -> !r.submittedAt().isBefore(from) && !r.submittedAt().isAfter(to))
                        .map(TraceRow::jobId).toList());
        assertThat(some).hasSizeGreaterThanOrEqualTo(10);
    }
}
