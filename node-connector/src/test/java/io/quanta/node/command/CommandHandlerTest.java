package io.quanta.node.command;

import static io.quanta.node.testing.Commands.kill;
import static io.quanta.node.testing.Commands.simStart;
import static io.quanta.node.testing.Commands.suspend;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.node.model.ThroughputModel;
import io.quanta.node.runner.AttemptId;
import io.quanta.node.runner.NodeWorkDir;
import io.quanta.node.runner.SimulatedJobRunner;
import io.quanta.node.testing.RecordingSink;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeCommandType;
import io.quanta.schemas.RunningAttempt;
import io.quanta.testing.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandHandlerTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final String NODE = "n1";
    private static final long EPOCH = 7;

    private final MutableClock clock = new MutableClock(T0);
    private final SimulatedJobRunner sim = new SimulatedJobRunner(NODE, ThroughputModel.tiresiasCompatible(), T0);
    private final RecordingSink sink = new RecordingSink();
    private final CommandHandler handler = new CommandHandler(NODE, EPOCH, sim, new InMemoryAttemptStore(), sink,
            clock);

    private void advance(long seconds) {
        clock.advance(Duration.ofSeconds(seconds));
        sim.advanceTo(clock.instant());
    }

    @Test
    void shouldStartAndCompleteAJobAndAnswerTheStartCommand() {
        NodeCommand start = simStart(NODE, EPOCH, "j1", 1, 60).build();

        handler.handle(start);
        assertThat(handler.running()).containsExactly(new RunningAttempt("j1", 1, List.of(0)));
        advance(60);

        assertThat(sink.events()).extracting(JobEvent::getType)
                .containsExactly(JobEventType.STARTED, JobEventType.COMPLETED);
        assertThat(sink.events()).allSatisfy(e -> {
            assertThat(e.getCommandId()).isEqualTo(start.getCommandId());
            assertThat(e.getNodeId()).isEqualTo(NODE);
            assertThat(e.getEpoch()).isEqualTo(EPOCH);
        });
        assertThat(sink.events().get(1).getAt()).isEqualTo(T0.plusSeconds(60));
        assertThat(handler.running()).isEmpty();
    }

    @Test
    void shouldIgnoreAndReportADuplicateStartWithoutStartingTwice() {
        NodeCommand start = simStart(NODE, EPOCH, "j1", 1, 60).build();
        handler.handle(start);

        handler.handle(start);
        handler.handle(simStart(NODE, EPOCH, "j1", 1, 60).setCommandId("another-id").build());

        assertThat(sink.ofType(JobEventType.STARTED)).hasSize(1);
        assertThat(sink.ofType(JobEventType.COMMAND_IGNORED)).hasSize(2).allSatisfy(e ->
                assertThat(e.getMessage()).contains("duplicate").contains("START already applied to j1#1"));
        assertThat(sink.ofType(JobEventType.COMMAND_IGNORED).get(1).getCommandId()).isEqualTo("another-id");
        assertThat(sink.ofType(JobEventType.COMMAND_IGNORED)).extracting(JobEvent::getCommandType)
                .containsOnly(NodeCommandType.START);
        assertThat(sim.nextEventTime()).contains(T0.plusSeconds(60));
    }

    @Test
    void shouldIgnoreCommandsOfAnotherEpochWhetherOlderOrNewer() {
        handler.handle(simStart(NODE, EPOCH - 1, "old", 1, 60).build());
        handler.handle(simStart(NODE, EPOCH + 1, "new", 1, 60).build());

        assertThat(sink.ofType(JobEventType.STARTED)).isEmpty();
        assertThat(sink.find("old", 1, JobEventType.COMMAND_IGNORED)).get()
                .extracting(JobEvent::getMessage).asString().contains("stale epoch: command for epoch 6");
        assertThat(sink.find("new", 1, JobEventType.COMMAND_IGNORED)).get()
                .extracting(JobEvent::getMessage).asString().contains("another incarnation");
        assertThat(handler.running()).isEmpty();
    }

    @Test
    void shouldIgnoreCommandsForAnOlderAttemptOnceANewerOneStarted() {
        handler.handle(simStart(NODE, EPOCH, "j1", 1, 600).build());
        handler.handle(simStart(NODE, EPOCH, "j1", 2, 600).build());

        handler.handle(suspend(NODE, EPOCH, "j1", 1));

        assertThat(sink.find("j1", 1, JobEventType.COMMAND_IGNORED)).get()
                .extracting(JobEvent::getMessage).asString().contains("stale attempt: j1#1 is older than attempt 2");
        assertThat(sink.find("j1", 1, JobEventType.FAILED)).as("the superseded attempt is stopped").isPresent();
        assertThat(handler.running()).extracting(RunningAttempt::getAttempt).containsExactly(2);
    }

    @Test
    void shouldSuspendWithACheckpointAnsweringTheSuspendCommand() {
        handler.handle(simStart(NODE, EPOCH, "j1", 1, 600).build());
        advance(100);
        NodeCommand suspend = suspend(NODE, EPOCH, "j1", 1);

        handler.handle(suspend);

        JobEvent suspended = sink.find("j1", 1, JobEventType.SUSPENDED).orElseThrow();
        assertThat(suspended.getCheckpointRef()).isEqualTo("sim:j1#1:work-ms=100000");
        assertThat(suspended.getCommandId()).isEqualTo(suspend.getCommandId());
        assertThat(handler.attempt(new AttemptId("j1", 1))).get().extracting(AttemptRecord::status)
                .isEqualTo(AttemptStatus.SUSPENDED);
    }

    @Test
    void shouldFailAnsweringTheKillCommandWhenKilled() {
        handler.handle(simStart(NODE, EPOCH, "j1", 1, 600).build());
        NodeCommand kill = kill(NODE, EPOCH, "j1", 1);

        handler.handle(kill);
        handler.handle(kill);

        assertThat(sink.ofType(JobEventType.FAILED)).singleElement()
                .satisfies(e -> assertThat(e.getCommandId()).isEqualTo(kill.getCommandId()));
        assertThat(sink.ofType(JobEventType.COMMAND_IGNORED)).singleElement()
                .satisfies(e -> assertThat(e.getMessage()).contains("duplicate"));
    }

    @Test
    void shouldIgnoreSuspendOrKillForAnAttemptThatNeverRanOrAlreadyEnded() {
        handler.handle(suspend(NODE, EPOCH, "ghost", 1));
        handler.handle(simStart(NODE, EPOCH, "j1", 1, 10).build());
        advance(10);
        handler.handle(kill(NODE, EPOCH, "j1", 1));

        assertThat(sink.find("ghost", 1, JobEventType.COMMAND_IGNORED)).get()
                .extracting(JobEvent::getMessage).asString().contains("unknown attempt");
        assertThat(sink.find("j1", 1, JobEventType.COMMAND_IGNORED)).get()
                .extracting(JobEvent::getMessage).asString().contains("already ended (COMPLETED)");
    }

    @Test
    void shouldReportEveryRunningAttemptLostWhenAbandoned() {
        handler.handle(simStart(NODE, EPOCH, "j1", 1, 600).build());
        handler.handle(simStart(NODE, EPOCH, "j2", 1, 5).build());
        advance(10);

        handler.abandonAll("connector stopped");

        assertThat(sink.ofType(JobEventType.LOST)).singleElement().satisfies(e -> {
            assertThat(e.getJobId()).isEqualTo("j1");
            assertThat(e.getMessage()).isEqualTo("connector stopped");
        });
        assertThat(handler.running()).isEmpty();
    }

    @Test
    void shouldDropCommandsForAnotherNodeSilently() {
        handler.handle(simStart("n2", EPOCH, "j1", 1, 10).build());

        assertThat(sink.events()).isEmpty();
        assertThat(handler.running()).isEmpty();
    }

    @Test
    void shouldNeverApplyACommandTwiceAcrossARestart(@TempDir Path dir) {
        NodeWorkDir workDir = new NodeWorkDir(dir);
        NodeCommand start = simStart(NODE, EPOCH, "j1", 1, 600).build();
        new CommandHandler(NODE, EPOCH, sim, new FileAttemptStore(workDir), sink, clock).handle(start);

        SimulatedJobRunner afterRestart = new SimulatedJobRunner(NODE, ThroughputModel.standard(), T0);
        CommandHandler restarted = new CommandHandler(NODE, EPOCH + 1, afterRestart, new FileAttemptStore(workDir),
                sink, clock);
        restarted.recover();
        restarted.handle(start);
        restarted.handle(simStart(NODE, EPOCH + 1, "j1", 1, 600).build());

        assertThat(sink.ofType(JobEventType.STARTED)).hasSize(1);
        assertThat(sink.find("j1", 1, JobEventType.LOST)).get().extracting(JobEvent::getEpoch).isEqualTo(EPOCH + 1);
        assertThat(sink.ofType(JobEventType.COMMAND_IGNORED)).extracting(JobEvent::getMessage)
                .anySatisfy(m -> assertThat(m).contains("stale epoch"))
                .anySatisfy(m -> assertThat(m).contains("duplicate"));
        assertThat(afterRestart.nextEventTime()).isEmpty();
    }

    @Test
    void shouldReportEveryRunningAttemptLostAndStopItWhenTheNodeFencesItself() {
        handler.handle(simStart(NODE, EPOCH, "j1", 1, 60).build());
        handler.handle(simStart(NODE, EPOCH, "j2", 3, 60).build());

        List<AttemptId> fenced = handler.fence("no broker contact");
        advance(60);

        assertThat(fenced).containsExactly(new AttemptId("j1", 1), new AttemptId("j2", 3));
        assertThat(handler.running()).isEmpty();
        assertThat(sink.ofType(JobEventType.LOST)).hasSize(2)
                .allSatisfy(e -> assertThat(e.getMessage()).isEqualTo("no broker contact"));
        // the simulated jobs were killed: neither completes, nor is the kill reported as a failure
        assertThat(sink.ofType(JobEventType.COMPLETED)).isEmpty();
        assertThat(sink.ofType(JobEventType.FAILED)).isEmpty();
        assertThat(sim.nextEventTime()).isEmpty();
    }

    @Test
    void shouldPublishAnEndBeforeRecordingItSoACrashBetweenRepeatsItInsteadOfLosingIt() {
        InMemoryAttemptStore store = new InMemoryAttemptStore();
        java.util.List<String> order = new java.util.ArrayList<>();
        AttemptStore watched = new AttemptStore() {
            @Override
            public java.util.List<AttemptRecord> loadAll() {
                return store.loadAll();
            }

            @Override
            public void save(AttemptRecord record) {
                order.add("saved " + record.status());
                store.save(record);
            }

            @Override
            public void delete(AttemptId id) {
                store.delete(id);
            }

            @Override
            public void deleteJob(String jobId) {
                store.deleteJob(jobId);
            }
        };
        CommandHandler h = new CommandHandler(NODE, EPOCH, sim, watched, e -> order.add("published " + e.getType()),
                clock);

        h.handle(simStart(NODE, EPOCH, "j1", 1, 60).build());
        advance(60);

        assertThat(order).containsSubsequence("published STARTED", "saved RUNNING", "published COMPLETED",
                "saved COMPLETED");
    }
}
