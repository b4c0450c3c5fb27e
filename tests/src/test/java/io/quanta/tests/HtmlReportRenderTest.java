package io.quanta.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.cli.local.WorkloadRecorder;
import io.quanta.cli.observe.ClusterView;
import io.quanta.schemas.GpuRef;
import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import io.quanta.sim.engine.SimulationRun;
import io.quanta.sim.profile.ProfileAssigner;
import io.quanta.sim.report.HtmlReport;
import io.quanta.sim.trace.Trace;
import io.quanta.sim.trace.TraceLoader;
import io.quanta.topics.serde.AvroTrust;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report of a live run (a workload recorder fed with job statuses) renders with its three plots. */
class HtmlReportRenderTest {

    private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");

    @Test
    void shouldRenderPlotsWhenLiveRunIsReported(@TempDir Path dir) throws Exception {
        AvroTrust.trustQuantaSchemas();
        Trace trace = TraceLoader.parse("small.csv", LocalClusterIT.trace());
        WorkloadRecorder recorder = new WorkloadRecorder(trace, j -> "w1-" + j.jobId(), ProfileAssigner.standard(1),
                600, 8);
        ClusterView view = new ClusterView(5);
        for (int i = 0; i < trace.size(); i++) {
            String id = "w1-" + trace.jobs().get(i).jobId();
            Instant submitted = T0.plusMillis(i * 100L);
            recorder.status(status(id, JobState.RUNNING, submitted, submitted.plusMillis(500), null));
            recorder.sample(submitted.plusMillis(600), i * 60.0 + 360, view.snapshot());
            recorder.status(status(id, JobState.FINISHED, submitted, submitted.plusMillis(500),
                    submitted.plusSeconds(2)));
        }
        SimulationRun run = recorder.run("quanta", "all jobs ended");
        Path report = dir.resolve("report.html");

        HtmlReport.write(report, "live run", Map.of("policy", "quanta"), List.of(run));

        assertThat(recorder.allEnded()).isTrue();
        assertThat(run.summary().finished()).isEqualTo(12);
        assertThat(run.summary().avgJct()).isEqualTo(1200.0);
        assertThat(run.summary().avgQueueingDelay()).isEqualTo(300.0);
        HtmlReportCheck.assertRenders(report);
    }

    private static JobStatus status(String id, JobState state, Instant submitted, Instant started, Instant finished) {
        return JobStatus.newBuilder().setJobId(id).setState(state).setNumGpus(1).setSubmittedAt(submitted)
                .setFirstStartedAt(started).setFinishedAt(finished).setUpdatedAt(finished != null ? finished : started)
                .setPlacement(List.of(new GpuRef("r00-s000", 0))).build();
    }
}
