package io.quanta.streams;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.event;
import static io.quanta.streams.testing.Records.job;
import static io.quanta.streams.testing.Records.node;
import static io.quanta.streams.testing.Records.running;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.schemas.DecisionType;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.JobState;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeCommandType;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.streams.testing.SchedulerDriver;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeLossTest {

    private static final String CELL = SchedulerDriver.CELL;

    /** n1 runs j1 (attempt 1, checkpointed once); n2 stays alive. */
    private static SchedulerDriver runningOnN1() {
        SchedulerDriver driver = SchedulerDriver.withPolicy("fifo");
        driver.heartbeat(node("n1", CELL, 2, 1, at(0)).build());
        driver.submit(job("j1", 2).build(), at(1));
        driver.heartbeat(node("n2", CELL, 2, 1, at(2)).build());
        driver.event(event("j1", 1, "n1", JobEventType.STARTED, at(3)));
        return driver;
    }

    @Test
    void shouldLoseSilentNodeAndRestartItsJobElsewhereWithNextAttempt() {
        try (SchedulerDriver driver = runningOnN1()) {
            driver.heartbeat(node("n2", CELL, 2, 1, at(20)).build());

            driver.heartbeat(node("n2", CELL, 2, 1, at(40)).build());

            SchedulingDecision requeue = driver.decisions().stream()
                    .filter(d -> d.getType() == DecisionType.REQUEUE).findFirst().orElseThrow();
            assertThat(requeue.getJobId()).isEqualTo("j1");
            assertThat(requeue.getReason()).contains("node n1 lost");
            NodeCommand restart = driver.commands().getLast();
            assertThat(restart.getType()).isEqualTo(NodeCommandType.START);
            assertThat(restart.getNodeId()).isEqualTo("n2");
            assertThat(restart.getAttempt()).isEqualTo(2);
            assertThat(driver.lastStatus("j1").getAttainedGpuSeconds()).isEqualTo(74.0);
        }
    }

    @Test
    void shouldIgnoreAndRecordLateEventOfTheLostAttempt() {
        try (SchedulerDriver driver = runningOnN1()) {
            driver.heartbeat(node("n2", CELL, 2, 1, at(40)).build());

            driver.event(event("j1", 1, "n1", JobEventType.COMPLETED, at(41)));

            SchedulingDecision ignored = driver.decisions().getLast();
            assertThat(ignored.getType()).isEqualTo(DecisionType.IGNORED_INPUT);
            assertThat(ignored.getReason()).contains("late event of an old attempt");
            assertThat(driver.deadLetters()).singleElement()
                    .satisfies(dl -> assertThat(dl.getReason()).contains("late event of an old attempt"));
            assertThat(driver.lastStatus("j1").getState()).isEqualTo(JobState.STARTING);
            assertThat(driver.lastStatus("j1").getAttempt()).isEqualTo(2);
        }
    }

    @Test
    void shouldExposeLivenessDeadlineAsNextWakeUp() {
        try (SchedulerDriver driver = runningOnN1()) {
            assertThat(driver.meta(CELL).livenessDeadlineMs()).isEqualTo(at(30).toEpochMilli() + 1);
            assertThat(driver.meta(CELL).nextWakeUpMs()).isLessThanOrEqualTo(at(30).toEpochMilli() + 1);
        }
    }

    @Test
    void shouldReconcileRestartedConnectorKillingUnknownAttemptsAndRequeueingMissingOnes() {
        try (SchedulerDriver driver = runningOnN1()) {
            int before = driver.commands().size();

            driver.heartbeat(node("n1", CELL, 2, 2, at(10)).setRunning(List.of(running("ghost", 7, 1))).build());

            List<NodeCommand> sent = driver.commands().subList(before, driver.commands().size());
            assertThat(sent).anySatisfy(c -> {
                assertThat(c.getType()).isEqualTo(NodeCommandType.KILL);
                assertThat(c.getJobId()).isEqualTo("ghost");
                assertThat(c.getEpoch()).isEqualTo(2);
            });
            assertThat(sent).anySatisfy(c -> {
                assertThat(c.getType()).isEqualTo(NodeCommandType.START);
                assertThat(c.getJobId()).isEqualTo("j1");
                assertThat(c.getAttempt()).isEqualTo(2);
            });
            assertThat(driver.decisions()).extracting(SchedulingDecision::getType)
                    .contains(DecisionType.KILL, DecisionType.REQUEUE);
        }
    }

    @Test
    void shouldKeepAttemptThatRestartedConnectorAdopted() {
        try (SchedulerDriver driver = runningOnN1()) {
            int before = driver.commands().size();

            driver.heartbeat(node("n1", CELL, 2, 2, at(10)).setRunning(List.of(running("j1", 1, 0, 1))).build());

            assertThat(driver.commands()).hasSize(before);
            assertThat(driver.lastStatus("j1").getState()).isEqualTo(JobState.RUNNING);
            driver.event(JobEvent.newBuilder(event("j1", 1, "n1", JobEventType.COMPLETED, at(12))).setEpoch(2).build());
            assertThat(driver.lastStatus("j1").getState()).isEqualTo(JobState.FINISHED);
        }
    }
}
