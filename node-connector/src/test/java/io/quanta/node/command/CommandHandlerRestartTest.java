package io.quanta.node.command;

import static io.quanta.node.testing.Commands.kill;
import static io.quanta.node.testing.Commands.start;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.embedded.Await;
import io.quanta.node.runner.NodeWorkDir;
import io.quanta.node.runner.ProcessJobRunner;
import io.quanta.node.runner.ProcessRunnerSettings;
import io.quanta.node.testing.Jobs;
import io.quanta.node.testing.RecordingSink;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.RunningAttempt;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command handler over real processes across a connector restart. */
class CommandHandlerRestartTest {

    @TempDir
    Path dir;

    private final Clock clock = Clock.systemUTC();
    private final RecordingSink sink = new RecordingSink();
    private ProcessJobRunner before;
    private ProcessJobRunner after;

    private ProcessJobRunner runner(NodeWorkDir workDir) {
        return new ProcessJobRunner(workDir, new ProcessRunnerSettings(Duration.ofSeconds(10), Duration.ofMillis(300),
                "udp://127.0.0.1:9", 5), clock);
    }

    @AfterEach
    void tearDown() {
        for (ProcessJobRunner runner : new ProcessJobRunner[] {before, after}) {
            if (runner != null) {
                runner.pids().values().forEach(Jobs::killTree);
                runner.close();
            }
        }
    }

    @Test
    void shouldReportAnAdoptedJobAsRunningAfterARestartAndObeyTheNewEpoch() {
        NodeWorkDir workDir = new NodeWorkDir(dir);
        before = runner(workDir);
        CommandHandler first = new CommandHandler("n1", 1, before, new FileAttemptStore(workDir), sink, clock);
        first.recover();
        first.handle(start("n1", 1, "j1", 1, Jobs.example("--steps", "100000", "--step-ms", "5", "--idle"))
                .setGpuIndices(List.of(2, 3)).build());
        before.close();

        after = runner(workDir);
        CommandHandler second = new CommandHandler("n1", 2, after, new FileAttemptStore(workDir), sink, clock);
        second.recover();

        assertThat(second.running()).containsExactly(new RunningAttempt("j1", 1, List.of(2, 3)));
        second.handle(kill("n1", 1, "j1", 1));
        assertThat(sink.ofType(JobEventType.COMMAND_IGNORED)).singleElement()
                .extracting(JobEvent::getMessage).asString().contains("stale epoch");
        second.handle(kill("n1", 2, "j1", 1));
        Await.until("the adopted job is killed", Duration.ofSeconds(30),
                () -> sink.find("j1", 1, JobEventType.FAILED).isPresent());
        assertThat(sink.find("j1", 1, JobEventType.FAILED).get().getEpoch()).isEqualTo(2);
        assertThat(second.running()).isEmpty();
        assertThat(sink.ofType(JobEventType.STARTED)).hasSize(1);
    }

    @Test
    void shouldStartWithDamagedStateFilesMovedAsideAndTheirAttemptReportedLost() throws Exception {
        NodeWorkDir workDir = new NodeWorkDir(dir);
        before = runner(workDir);
        CommandHandler first = new CommandHandler("n1", 1, before, new FileAttemptStore(workDir), sink, clock);
        first.recover();
        first.handle(start("n1", 1, "ok", 1, Jobs.example("--steps", "100000", "--step-ms", "5", "--idle")).build());
        first.handle(start("n1", 1, "torn", 1, Jobs.example("--steps", "1", "--step-ms", "1")).build());
        first.handle(start("n1", 1, "garbled", 1, Jobs.example("--steps", "100000", "--step-ms", "5", "--idle"))
                .build());
        before.close();
        // a torn attempt record, a garbled process record and a garbled epoch file: a disk that lost a write
        java.nio.file.Files.writeString(workDir.attemptDir(new io.quanta.node.runner.AttemptId("torn", 1))
                .resolve(NodeWorkDir.ATTEMPT_STATE), "{\"jobId\": \"torn\", \"att");
        java.nio.file.Files.writeString(workDir.attemptDir(new io.quanta.node.runner.AttemptId("garbled", 1))
                .resolve("process.json"), "not json at all");
        java.nio.file.Files.writeString(workDir.epochFile(), "\u0000\u0000");

        after = runner(workDir);
        long epoch = io.quanta.node.NodeEpoch.next(workDir, clock);
        CommandHandler second = new CommandHandler("n1", epoch, after, new FileAttemptStore(workDir), sink, clock);
        second.recover();

        assertThat(epoch).isGreaterThan(1);
        assertThat(second.running()).extracting(RunningAttempt::getJobId).containsExactly("ok");
        assertThat(sink.find("garbled", 1, JobEventType.LOST)).get().extracting(JobEvent::getMessage).asString()
                .contains("could not recover");
        try (java.util.stream.Stream<Path> aside = java.nio.file.Files.list(dir.resolve("corrupt"))) {
            assertThat(aside.map(p -> p.getFileName().toString()).toList())
                    .anyMatch(n -> n.startsWith("jobs_torn_attempt-1_attempt.json"))
                    .anyMatch(n -> n.startsWith("epoch"));
        }
    }
}
