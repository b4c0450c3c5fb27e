package io.quanta.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.cli.observe.ClusterView;
import io.quanta.schemas.DecisionType;
import io.quanta.schemas.GpuInfo;
import io.quanta.schemas.GpuRef;
import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.schemas.RunningAttempt;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.topics.serde.AvroTrust;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class LiveProgressTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @BeforeAll
    static void trustSchemas() {
        AvroTrust.trustQuantaSchemas();
    }

    private static JobStatus status(String id, JobState state, int level) {
        return JobStatus.newBuilder().setJobId(id).setState(state).setQueueLevel(level).setUpdatedAt(T0).build();
    }

    private static SchedulingDecision decision(long seq, String job) {
        return SchedulingDecision.newBuilder().setCellId("cell-0").setSeq(seq).setPolicy("quanta").setConfigHash("h")
                .setType(DecisionType.START).setJobId(job).setGpus(List.of(new GpuRef("n1", 0), new GpuRef("n1", 1)))
                .setReason("start " + job).setStreamTime(T0).build();
    }

    private static NodeHeartbeat node(String id, int gpus, int busy) {
        List<GpuInfo> infos = IntStream.range(0, gpus).mapToObj(i -> new GpuInfo(i, "u" + i, "V100", 16_000, 0, 0,
                true, null)).toList();
        List<Integer> used = IntStream.range(0, busy).boxed().toList();
        return NodeHeartbeat.newBuilder().setNodeId(id).setCellId("cell-0").setRack("r00").setEpoch(1)
                .setGpus(infos).setRunning(busy == 0 ? List.of() : List.of(new RunningAttempt("j1", 1, used)))
                .setSentAt(T0).build();
    }

    @Test
    void shouldSummariseGpusAndQueuesWhenViewHasJobsAndNodes() {
        ClusterView view = new ClusterView(5);
        view.heartbeat(node("n1", 8, 3));
        view.heartbeat(node("n2", 8, 0));
        view.status(status("a", JobState.QUEUED, 0));
        view.status(status("b", JobState.QUEUED, 1));
        view.status(status("c", JobState.RUNNING, 0));
        view.status(status("d", JobState.FINISHED, 0));

        String line = LiveProgress.line(Duration.ofSeconds(75), 45_000, view.snapshot(), "1/4 ended");

        assertThat(line).isEqualTo("[1:15 | sim 12h30m] GPUs 3/16 busy, 13 free | queued 2 (L0 1, L1 1), running 1, "
                + "finished 1 | workload 1/4 ended");
    }

    @Test
    void shouldCountEndedJobOnceAndForgetItWhenItFinishes() {
        ClusterView view = new ClusterView(5);
        view.status(status("a", JobState.RUNNING, 0));
        view.status(status("a", JobState.FINISHED, 0));

        assertThat(view.snapshot().running()).isZero();
        assertThat(view.snapshot().jobs(JobState.FINISHED)).isEqualTo(1);
    }

    @Test
    void shouldPrintOnlyNewDecisionsWhenTickingAgain() {
        ClusterView view = new ClusterView(10);
        StringWriter text = new StringWriter();
        LiveProgress progress = new LiveProgress(new PrintWriter(text));
        view.decision(decision(1, "job-1"));
        progress.tick(Duration.ofSeconds(1), -1, view.snapshot(), "");
        view.decision(decision(2, "job-2"));
        progress.tick(Duration.ofSeconds(2), -1, view.snapshot(), "");

        assertThat(text.toString()).containsOnlyOnce("START     job-1 on n1[0,1]: start job-1")
                .containsOnlyOnce("job-2 on n1[0,1]");
    }
}
