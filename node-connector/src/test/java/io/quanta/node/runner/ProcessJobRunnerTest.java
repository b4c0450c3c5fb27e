package io.quanta.node.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.embedded.Await;
import io.quanta.node.telemetry.TelemetryAggregator;
import io.quanta.node.telemetry.UdpTelemetryServer;
import io.quanta.node.testing.Jobs;
import io.quanta.node.testing.RecordingListener;
import io.quanta.schemas.JobTelemetry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessJobRunnerTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private final Clock clock = Clock.systemUTC();
    private final RecordingListener events = new RecordingListener();
    private final List<ProcessJobRunner> runners = new ArrayList<>();
    private NodeWorkDir workDir;
    private TelemetryAggregator aggregator;
    private UdpTelemetryServer telemetry;

    @BeforeEach
    void setUp() {
        workDir = new NodeWorkDir(dir.resolve("node"));
        aggregator = new TelemetryAggregator("n1", clock.instant());
        telemetry = new UdpTelemetryServer(0, aggregator, clock);
    }

    @AfterEach
    void tearDown() {
        for (ProcessJobRunner runner : runners) {
            runner.pids().values().forEach(Jobs::killTree);
            runner.close();
        }
        telemetry.close();
    }

    private ProcessJobRunner runner(Duration suspendDeadline) {
        ProcessJobRunner runner = new ProcessJobRunner(workDir,
                new ProcessRunnerSettings(suspendDeadline, Duration.ofMillis(300), telemetry.endpoint(), 5), clock);
        runners.add(runner);
        return runner;
    }

    private RunnerEvent awaitEnd(RecordingListener listener, AttemptId id) {
        Await.until(id + " ends", WAIT, () -> listener.endOf(id).isPresent());
        return listener.endOf(id).orElseThrow();
    }

    private String stdout(AttemptId id) throws IOException {
        return Files.readString(workDir.attemptDir(id).resolve("stdout.log"));
    }

    @Test
    void shouldCompleteAndAggregateEveryMinibatchWhenTheExampleJobRunsToTheEnd() {
        AttemptId id = new AttemptId("j1", 1);

        runner(Duration.ofSeconds(10)).start(Jobs.launch(id, Jobs.example("--steps", "20", "--step-ms", "5",
                "--memory-mib", "1234")), events);

        assertThat(awaitEnd(events, id)).isInstanceOf(RunnerEvent.Completed.class);
        assertThat(events.events().get(0)).isInstanceOf(RunnerEvent.Started.class);
        Await.until("all 20 minibatches reported", WAIT, () -> aggregator.totalOf(id).orElse(0) == 20);
        JobTelemetry record = aggregator.flush(clock.instant()).get(0);
        assertThat(record.getMinibatchesDone()).isEqualTo(20);
        assertThat(record.getMinibatchesPerSecond()).isPositive();
        assertThat(record.getGpuMemoryUsedMiB()).isEqualTo(1234);
        assertThat(record.getNodeId()).isEqualTo("n1");
    }

    @Test
    void shouldFailWithTheExitCodeAndTheLastLinesOfStderrWhenTheJobFails() {
        AttemptId id = new AttemptId("j1", 1);

        runner(Duration.ofSeconds(10)).start(Jobs.launch(id, Jobs.example("--steps", "20", "--step-ms", "1",
                "--fail-at", "3", "--fail-code", "7")), events);

        RunnerEvent.Failed failed = (RunnerEvent.Failed) awaitEnd(events, id);
        assertThat(failed.exitCode()).hasValue(7);
        assertThat(failed.message()).contains("exited with code 7").contains("failing at step 3");
    }

    @Test
    void shouldKeepOnlyTheLastStderrLinesWhenAScriptFails() {
        AttemptId id = new AttemptId("j1", 1);

        runner(Duration.ofSeconds(10)).start(Jobs.launch(id, Jobs.script("fail.sh", "42")), events);

        RunnerEvent.Failed failed = (RunnerEvent.Failed) awaitEnd(events, id);
        assertThat(failed.exitCode()).hasValue(42);
        assertThat(failed.message()).endsWith("loading data\nepoch 1: loss 0.93\n"
                + "RuntimeError: CUDA out of memory (simulated)");
    }

    @Test
    void shouldFailWithStatus127WhenTheCommandDoesNotExist() {
        AttemptId id = new AttemptId("j1", 1);

        runner(Duration.ofSeconds(10)).start(Jobs.launch(id, List.of("no-such-training-binary-xyz")), events);

        RunnerEvent.Failed failed = (RunnerEvent.Failed) awaitEnd(events, id);
        assertThat(failed.exitCode()).hasValue(127);
        assertThat(failed.message()).contains("no-such-training-binary-xyz");
    }

    @Test
    void shouldGiveTheJobItsGpusCheckpointDirTelemetryEndpointAndWorkDir() throws IOException {
        AttemptId id = new AttemptId("job/with spaces", 2);
        Path out = dir.resolve("env.txt");

        runner(Duration.ofSeconds(10)).start(Jobs.launch(id, Jobs.script("print-env.sh", out.toString()),
                Optional.empty(), List.of(1, 3), Map.of("USER_SETTING", "x", "CUDA_VISIBLE_DEVICES", "7")), events);

        assertThat(awaitEnd(events, id)).isInstanceOf(RunnerEvent.Completed.class);
        Path attemptDir = workDir.attemptDir(id);
        assertThat(attemptDir.getParent().getFileName().toString()).isEqualTo("job%2Fwith%20spaces");
        assertThat(Files.readAllLines(out)).containsExactly(
                "CUDA_VISIBLE_DEVICES=1,3",
                "QUANTA_JOB_ID=job/with spaces",
                "QUANTA_ATTEMPT=2",
                "QUANTA_CHECKPOINT_DIR=" + workDir.checkpointDir(id.jobId()),
                "QUANTA_RESUME=0",
                "QUANTA_TELEMETRY=" + telemetry.endpoint(),
                "QUANTA_WORK_DIR=" + attemptDir.resolve("work"),
                "USER_SETTING=x",
                "PWD=" + attemptDir.resolve("work"));
    }

    @Test
    void shouldSuspendWithACheckpointAndResumeFromItInTheNextAttempt() throws IOException {
        ProcessJobRunner runner = runner(Duration.ofSeconds(20));
        AttemptId first = new AttemptId("j1", 1);
        runner.start(Jobs.launch(first, Jobs.example("--steps", "100000", "--step-ms", "5", "--idle")), events);
        Await.until("the job reports minibatches", WAIT, () -> aggregator.totalOf(first).orElse(0) > 0);

        runner.suspend(first);

        RunnerEvent.Suspended suspended = (RunnerEvent.Suspended) awaitEnd(events, first);
        Path checkpointDir = workDir.checkpointDir("j1");
        assertThat(suspended.checkpointRef()).isEqualTo(checkpointDir.toString());
        String marker = Files.readString(checkpointDir.resolve(CheckpointMarker.FILE_NAME));
        int step = Integer.parseInt(marker.replaceAll("(?s).*\"step\": (\\d+).*", "$1"));
        assertThat(step).isPositive();
        assertThat(stdout(first)).contains("checkpointed at step " + step + " on request");

        AttemptId second = new AttemptId("j1", 2);
        runner.start(Jobs.launch(second, Jobs.example("--steps", Integer.toString(step + 10), "--step-ms", "1"),
                Optional.of(suspended.checkpointRef()), List.of(0), Map.of()), events);

        assertThat(awaitEnd(events, second)).isInstanceOf(RunnerEvent.Completed.class);
        assertThat(stdout(second)).contains("resumed from step " + step + " of " + (step + 10));
        Await.until("the resumed total is reported", WAIT,
                () -> aggregator.totalOf(second).orElse(0) == step + 10);
    }

    @Test
    void shouldStopAndFailAJobThatIgnoresTheCheckpointRequestAfterTheDeadline() throws IOException {
        ProcessJobRunner runner = runner(Duration.ofMillis(300));
        AttemptId id = new AttemptId("stubborn", 1);
        runner.start(Jobs.launch(id, Jobs.script("ignore-signals.sh")), events);
        Path stderr = workDir.attemptDir(id).resolve("stderr.log");
        Await.until("the script has installed its traps", WAIT,
                () -> Files.exists(stderr) && readQuietly(stderr).contains("ignoring"));
        long pid = runner.pids().get(id);

        runner.suspend(id);

        RunnerEvent.Failed failed = (RunnerEvent.Failed) awaitEnd(events, id);
        assertThat(failed.message()).contains("did not checkpoint within the suspend deadline of 300 ms");
        assertThat(failed.exitCode()).hasValue(137);
        Await.until("no process of the job is left", WAIT, () -> ProcessHandle.of(pid).isEmpty()
                || !ProcessHandle.of(pid).get().isAlive());
    }

    @Test
    void shouldStopAtOnceAndFailWhenKilled() {
        ProcessJobRunner runner = runner(Duration.ofSeconds(10));
        AttemptId id = new AttemptId("j1", 1);
        runner.start(Jobs.launch(id, Jobs.example("--steps", "100000", "--step-ms", "5", "--idle")), events);

        runner.kill(id);

        RunnerEvent.Failed failed = (RunnerEvent.Failed) awaitEnd(events, id);
        assertThat(failed.message()).contains("killed on request");
    }

    @Test
    void shouldAdoptARunningJobAfterARestartAndReportHowItEnds() throws IOException {
        AttemptId id = new AttemptId("j1", 1);
        Path go = dir.resolve("go");
        ProcessJobRunner before = runner(Duration.ofSeconds(10));
        before.start(Jobs.launch(id, Jobs.script("wait-for-file.sh", go.toString(), "4")), events);
        before.close();

        RecordingListener afterRestart = new RecordingListener();
        ProcessJobRunner after = runner(Duration.ofSeconds(10));
        after.recover(id, false, afterRestart);
        assertThat(after.pids()).containsKey(id);
        Files.writeString(go, "");

        RunnerEvent.Failed failed = (RunnerEvent.Failed) awaitEnd(afterRestart, id);
        assertThat(failed.exitCode()).hasValue(4);
        assertThat(events.endOf(id)).as("the closed runner reports nothing").isEmpty();
    }

    @Test
    void shouldReportTheEndOfAJobThatFinishedWhileTheConnectorWasDown() throws IOException {
        AttemptId id = new AttemptId("j1", 1);
        Path go = dir.resolve("go");
        ProcessJobRunner before = runner(Duration.ofSeconds(10));
        before.start(Jobs.launch(id, Jobs.script("wait-for-file.sh", go.toString(), "0")), events);
        long pid = before.pids().get(id);
        before.close();
        Files.writeString(go, "");
        Await.until("the job exits", WAIT, () -> ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true));

        RecordingListener afterRestart = new RecordingListener();
        runner(Duration.ofSeconds(10)).recover(id, false, afterRestart);

        assertThat(afterRestart.endOf(id)).get().isInstanceOf(RunnerEvent.Completed.class);
    }

    @Test
    void shouldReportLostWhenNoProcessWasEverRecorded() {
        RecordingListener afterRestart = new RecordingListener();

        runner(Duration.ofSeconds(10)).recover(new AttemptId("never", 1), false, afterRestart);

        assertThat(afterRestart.endOf(new AttemptId("never", 1))).get().isInstanceOf(RunnerEvent.Lost.class);
    }

    @Test
    void shouldFailWithoutRunningAnythingWhenTheCommandIsEmpty() {
        AttemptId id = new AttemptId("j1", 1);

        runner(Duration.ofSeconds(10)).start(Jobs.launch(id, List.of()), events);

        assertThat(events.endOf(id)).get().isInstanceOf(RunnerEvent.Failed.class)
                .extracting(e -> ((RunnerEvent.Failed) e).exitCode()).isEqualTo(OptionalInt.empty());
    }

    private static String readQuietly(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "";
        }
    }
}
