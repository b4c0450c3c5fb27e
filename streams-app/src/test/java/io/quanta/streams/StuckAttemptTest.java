package io.quanta.streams;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.event;
import static io.quanta.streams.testing.Records.job;
import static io.quanta.streams.testing.Records.node;
import static io.quanta.streams.testing.Records.running;
import static io.quanta.streams.testing.Records.telemetry;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.core.config.PolicyConfig;
import io.quanta.schemas.DecisionType;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.JobState;
import io.quanta.schemas.JobTelemetry;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeCommandType;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.streams.testing.SchedulerDriver;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** No attempt holds GPUs forever: lost events, silent nodes and old connector incarnations cannot leave a job stuck. */
class StuckAttemptTest {

    private static final String CELL = SchedulerDriver.CELL;

    private static SchedulerDriver driver(String policy) {
        SchedulerSettings defaults = SchedulerSettings.defaults();
        Safeguards guards = new Safeguards(defaults.safeguards().inputMaxBytes(), defaults.safeguards().maxClockSkew(),
                Duration.ofSeconds(60), Duration.ofSeconds(60));
        return new SchedulerDriver(defaults.withPolicy(PolicyConfig.of(Map.of("policy", policy,
                "tiresias.thresholds", "100"))).withSafeguards(guards), StoreOptions.inMemory());
    }

    @Test
    void shouldGiveUpAStartThatNeverReportsAndCountItAsAFailure() {
        try (SchedulerDriver driver = driver("fifo")) {
            driver.heartbeat(node("n1", CELL, 1, 1, at(0)).build());
            driver.submit(job("j", 1).build(), at(1));
            assertThat(driver.lastStatus("j").getState()).isEqualTo(JobState.STARTING);

            for (int t = 10; t <= 80; t += 10) {
                driver.heartbeat(node("n1", CELL, 1, 1, at(t)).build());
            }
            // the attempt may have started without its STARTED arriving: no new attempt until n1 says it does not
            // run it (its answer to the KILL, or its heartbeats a node timeout after the KILL)
            assertThat(driver.commands()).extracting(NodeCommand::getType).containsExactly(NodeCommandType.START,
                    NodeCommandType.KILL);
            driver.event(JobEvent.newBuilder(event("j", 1, "n1", JobEventType.COMMAND_IGNORED, at(81)))
                    .setMessage("KILL ignored: unknown attempt: j#1 was never started on node n1").build());
            driver.heartbeat(node("n1", CELL, 1, 1, at(90)).build());

            SchedulingDecision requeue = driver.decisions().stream()
                    .filter(d -> d.getType() == DecisionType.REQUEUE).findFirst().orElseThrow();
            assertThat(requeue.getReason()).contains("no STARTED from n1 within 60 s").contains("retry 1 of 3");
            List<NodeCommand> commands = driver.commands();
            assertThat(commands).extracting(NodeCommand::getType).containsExactly(NodeCommandType.START,
                    NodeCommandType.KILL, NodeCommandType.START);
            assertThat(commands.getLast().getAttempt()).isEqualTo(2);
        }
    }

    @Test
    void shouldRequeueAStartTheNodeRefusedByTheEventsCommandTypeWhateverItsCommandId() {
        try (SchedulerDriver driver = driver("fifo")) {
            driver.heartbeat(node("n1", CELL, 1, 1, at(0)).build());
            driver.submit(job("j", 1).build(), at(1));
            assertThat(driver.lastStatus("j").getState()).isEqualTo(JobState.STARTING);

            driver.event(JobEvent.newBuilder(event("j", 1, "n1", JobEventType.COMMAND_IGNORED, at(2)))
                    .setCommandId("an id that names no type").setCommandType(NodeCommandType.START)
                    .setMessage("START ignored: no such GPU").build());

            List<NodeCommand> commands = driver.commands();
            assertThat(commands).extracting(NodeCommand::getType).containsExactly(NodeCommandType.START,
                    NodeCommandType.START);
            assertThat(commands.getLast().getAttempt()).isEqualTo(2);
        }
    }

    @Test
    void shouldKillAndRequeueASuspensionThatNeverReports() {
        try (SchedulerDriver driver = driver("tiresias-las")) {
            driver.heartbeat(node("n1", CELL, 2, 1, at(0)).build());
            driver.submit(job("a", 2).build(), at(0));
            driver.event(event("a", 1, "n1", JobEventType.STARTED, at(0)));
            driver.heartbeat(node("n1", CELL, 2, 1, at(55)).setRunning(List.of(running("a", 1, 0, 1))).build());
            driver.submit(job("b", 2).build(), at(60));
            assertThat(driver.lastStatus("a").getState()).isEqualTo(JobState.SUSPENDING);

            for (int t = 70; t <= 140; t += 10) {
                driver.heartbeat(node("n1", CELL, 2, 1, at(t)).setRunning(List.of(running("a", 1, 0, 1))).build());
            }

            assertThat(driver.decisions()).anySatisfy(d -> {
                assertThat(d.getType()).isEqualTo(DecisionType.REQUEUE);
                assertThat(d.getJobId()).isEqualTo("a");
                assertThat(d.getReason()).contains("no SUSPENDED from n1 within 60 s");
            });
            assertThat(driver.commands()).anySatisfy(c -> {
                assertThat(c.getType()).isEqualTo(NodeCommandType.KILL);
                assertThat(c.getJobId()).isEqualTo("a");
            });
            assertThat(driver.commands().getLast().getJobId()).isEqualTo("b");
        }
    }

    @Test
    void shouldLearnFromHeartbeatsWhatLostEventsWouldHaveSaid() {
        try (SchedulerDriver driver = driver("fifo")) {
            driver.heartbeat(node("n1", CELL, 1, 1, at(0)).build());
            driver.submit(job("j", 1).build(), at(1));
            driver.submit(job("k", 1).build(), at(2));

            // STARTED never arrives, but every heartbeat lists the attempt: running, after a node timeout of grace
            driver.heartbeat(node("n1", CELL, 1, 1, at(10)).setRunning(List.of(running("j", 1, 0))).build());
            assertThat(driver.lastStatus("j").getState()).isEqualTo(JobState.STARTING);
            driver.heartbeat(node("n1", CELL, 1, 1, at(40)).setRunning(List.of(running("j", 1, 0))).build());
            assertThat(driver.lastStatus("j").getState()).isEqualTo(JobState.RUNNING);

            // COMPLETED never arrives and the heartbeats stop listing it: the attempt is over, the GPU freed
            driver.heartbeat(node("n1", CELL, 1, 1, at(50)).build());
            driver.heartbeat(node("n1", CELL, 1, 1, at(80)).build());

            assertThat(driver.decisions()).anySatisfy(d -> {
                assertThat(d.getType()).isEqualTo(DecisionType.REQUEUE);
                assertThat(d.getReason()).contains("heartbeats of node n1 no longer list it");
            });
            NodeCommand next = driver.commands().getLast();
            assertThat(next.getType()).isEqualTo(NodeCommandType.START);
        }
    }

    @Test
    void shouldIgnoreEventsOfAnEarlierConnectorIncarnation() {
        try (SchedulerDriver driver = driver("fifo")) {
            driver.heartbeat(node("n1", CELL, 1, 1, at(0)).build());
            driver.submit(job("j", 1).build(), at(1));
            driver.event(JobEvent.newBuilder(event("j", 1, "n1", JobEventType.STARTED, at(2))).setEpoch(1).build());
            driver.heartbeat(node("n1", CELL, 1, 2, at(3)).setRunning(List.of(running("j", 1, 0))).build());

            driver.event(JobEvent.newBuilder(event("j", 1, "n1", JobEventType.COMPLETED, at(4))).setEpoch(1).build());

            assertThat(driver.decisions().getLast().getType()).isEqualTo(DecisionType.IGNORED_INPUT);
            assertThat(driver.decisions().getLast().getReason()).contains("earlier incarnation")
                    .contains("epoch 1 < 2");
            assertThat(driver.lastStatus("j").getState()).isEqualTo(JobState.RUNNING);
            assertThat(driver.deadLetters()).last()
                    .satisfies(dl -> assertThat(dl.getReason()).contains("earlier incarnation"));
        }
    }

    @Test
    void shouldCountTelemetryItCannotUse() {
        try (SchedulerDriver driver = driver("fifo")) {
            driver.heartbeat(node("n1", CELL, 1, 1, at(0)).build());
            driver.submit(job("j", 1).build(), at(1));
            driver.event(event("j", 1, "n1", JobEventType.STARTED, at(2)));

            driver.telemetry(telemetry("j", 1, "n1", Double.NaN, at(3)));
            driver.telemetry(telemetry("j", 1, "n1", -5, at(4)));
            driver.telemetry(telemetry("j", 7, "n1", 3.0, at(5)));
            driver.telemetry(telemetry("j", 1, "n1", 3.0, at(6)));

            assertThat(driver.meta(CELL).droppedTelemetry()).isEqualTo(3);
        }
    }

    @Test
    void shouldDeadLetterTelemetryForAJobTheCellNeverHadButCountLateTelemetryOfAFinishedOne() {
        try (SchedulerDriver driver = driver("fifo")) {
            driver.heartbeat(node("n1", CELL, 1, 1, at(0)).build());
            driver.submit(job("j", 1).build(), at(1));
            driver.event(event("j", 1, "n1", JobEventType.STARTED, at(2)));
            driver.event(event("j", 1, "n1", JobEventType.COMPLETED, at(3)));

            driver.telemetry(telemetry("j", 1, "n1", 3.0, at(4)));
            driver.telemetry(JobTelemetry.newBuilder(telemetry("ghost", 1, "n1", 3.0, at(5)))
                    .setCellId(CELL).build());

            assertThat(driver.meta(CELL).droppedTelemetry()).as("late telemetry of the finished job").isEqualTo(1);
            assertThat(driver.deadLetters().stream().map(d -> d.getReason()).toList()).as("dead letters")
                    .anySatisfy(r -> assertThat(r).contains("telemetry for job ghost which cell " + CELL
                            + " does not know"))
                    .noneSatisfy(r -> assertThat(r).contains("telemetry for job j "));
        }
    }
}
