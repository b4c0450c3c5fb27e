package io.quanta.node.command;

import static io.quanta.node.testing.Commands.simStart;
import static io.quanta.node.testing.Commands.suspend;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.node.model.ThroughputModel;
import io.quanta.node.runner.AttemptId;
import io.quanta.node.runner.NodeWorkDir;
import io.quanta.node.runner.SimulatedJobRunner;
import io.quanta.node.testing.RecordingSink;
import io.quanta.schemas.JobEventType;
import io.quanta.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ended attempts leave the node's work directory after the retention; running and recent ones stay. */
class AttemptCleanupTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final String NODE = "n1";
    private static final long EPOCH = 3;
    private static final Duration RETENTION = Duration.ofHours(168);

    @TempDir
    Path root;

    private final MutableClock clock = new MutableClock(T0);
    private final SimulatedJobRunner sim = new SimulatedJobRunner(NODE, ThroughputModel.tiresiasCompatible(), T0);
    private final RecordingSink sink = new RecordingSink();
    private NodeWorkDir workDir;
    private CommandHandler handler;

    @BeforeEach
    void setUp() {
        workDir = new NodeWorkDir(root);
        handler = new CommandHandler(NODE, EPOCH, sim, new FileAttemptStore(workDir), sink, clock);
    }

    private void advance(Duration d) {
        clock.advance(d);
        sim.advanceTo(clock.instant());
    }

    private CommandHandler.Sweep sweep() {
        return handler.forgetEndedBefore(clock.instant().minus(RETENTION));
    }

    /** Runs a 60 s attempt to completion, waits past the retention and sweeps. */
    private void completeAndSweep(String jobId, int attempt) {
        handler.handle(simStart(NODE, EPOCH, jobId, attempt, 60).build());
        advance(Duration.ofSeconds(60));
        advance(RETENTION.plusHours(1));
        sweep();
    }

    @Test
    void shouldRemoveAFinishedJobsAttemptsAndDirectoryOnlyAfterTheRetention() throws Exception {
        handler.handle(simStart(NODE, EPOCH, "done", 1, 60).build());
        Files.createDirectories(workDir.checkpointDir("done"));
        advance(Duration.ofSeconds(60));
        assertThat(sink.ofType(JobEventType.COMPLETED)).hasSize(1);

        advance(RETENTION.minusMinutes(1));
        assertThat(sweep()).isEqualTo(new CommandHandler.Sweep(0, 0));
        assertThat(workDir.attemptDir(new AttemptId("done", 1))).isDirectory();

        advance(Duration.ofMinutes(2));
        assertThat(sweep()).isEqualTo(new CommandHandler.Sweep(1, 1));
        assertThat(workDir.jobDir("done")).doesNotExist();
        assertThat(handler.attempt(new AttemptId("done", 1))).isEmpty();
    }

    @Test
    void shouldKeepRunningAttemptsAndTheCheckpointOfASuspendedJob() throws Exception {
        handler.handle(simStart(NODE, EPOCH, "paused", 1, 3_600).build());
        handler.handle(simStart(NODE, EPOCH, "long", 1, 30 * 24 * 3_600).setGpuIndices(java.util.List.of(1)).build());
        advance(Duration.ofSeconds(10));
        handler.handle(suspend(NODE, EPOCH, "paused", 1));
        advance(Duration.ofSeconds(1));
        assertThat(sink.ofType(JobEventType.SUSPENDED)).hasSize(1);
        Files.createDirectories(workDir.checkpointDir("paused"));

        advance(RETENTION.plusHours(1));
        CommandHandler.Sweep swept = sweep();

        assertThat(swept).isEqualTo(new CommandHandler.Sweep(1, 0));
        assertThat(workDir.attemptDir(new AttemptId("paused", 1))).doesNotExist();
        assertThat(workDir.checkpointDir("paused")).isDirectory();
        assertThat(workDir.attemptDir(new AttemptId("long", 1))).isDirectory();
        assertThat(handler.running()).extracting(r -> r.getJobId()).containsExactly("long");
    }

    @Test
    void shouldStillRefuseAnOlderAttemptOfAJobAfterItsAttemptsWereForgotten() {
        completeAndSweep("j", 2);

        handler.handle(simStart(NODE, EPOCH, "j", 1, 60).build());

        assertThat(sink.ofType(JobEventType.COMMAND_IGNORED)).singleElement()
                .satisfies(e -> assertThat(e.getMessage()).contains("stale attempt"));
        assertThat(handler.running()).isEmpty();
    }

    @Test
    void shouldFindNothingToForgetAfterARestartOnceEverythingWasSwept() {
        completeAndSweep("done", 1);

        CommandHandler restarted = new CommandHandler(NODE, EPOCH + 1, sim, new FileAttemptStore(workDir), sink, clock);
        restarted.recover();

        assertThat(restarted.forgetEndedBefore(clock.instant())).isEqualTo(new CommandHandler.Sweep(0, 0));
        assertThat(workDir.attemptStateFiles()).isEmpty();
    }
}
