package io.quanta.streams;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.event;
import static io.quanta.streams.testing.Records.job;
import static io.quanta.streams.testing.Records.node;
import static io.quanta.streams.testing.Records.running;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.core.config.PolicyConfig;
import io.quanta.schemas.DecisionType;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.JobState;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeCommandType;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.streams.testing.SchedulerDriver;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PreemptionTest {

    private static final String CELL = SchedulerDriver.CELL;

    private static SchedulerDriver lasDriver() {
        PolicyConfig las = PolicyConfig.of(Map.of("policy", "tiresias-las", "tiresias.thresholds", "100"));
        return new SchedulerDriver(SchedulerSettings.defaults().withPolicy(las), StoreOptions.inMemory());
    }

    @Test
    void shouldDemoteRunningJobWhenItsServiceCrossesTheThresholdAtItsWakeUp() {
        try (SchedulerDriver driver = lasDriver()) {
            driver.heartbeat(node("n1", CELL, 2, 1, at(0)).build());
            driver.submit(job("a", 2).build(), at(0));
            driver.event(event("a", 1, "n1", JobEventType.STARTED, at(0)));

            long wakeUp = driver.meta(CELL).policyWakeUpMs();
            driver.heartbeat(node("n1", CELL, 2, 1, at(55)).setRunning(List.of(running("a", 1, 0, 1))).build());

            assertThat(wakeUp).isEqualTo(at(50).toEpochMilli());
            SchedulingDecision demotion = driver.decisions().getLast();
            assertThat(demotion.getType()).isEqualTo(DecisionType.CHANGE_QUEUE);
            assertThat(demotion.getJobId()).isEqualTo("a");
            assertThat(demotion.getDetails()).containsEntry("fromLevel", "0").containsEntry("toLevel", "1");
            assertThat(driver.lastStatus("a").getQueueLevel()).isEqualTo(1);
            assertThat(driver.lastStatus("a").getState()).isEqualTo(JobState.RUNNING);
        }
    }

    @Test
    void shouldPreemptDemotedJobForNewArrivalAndStartItOnceSuspended() {
        try (SchedulerDriver driver = lasDriver()) {
            driver.heartbeat(node("n1", CELL, 2, 1, at(0)).build());
            driver.submit(job("a", 2).build(), at(0));
            driver.event(event("a", 1, "n1", JobEventType.STARTED, at(0)));
            driver.heartbeat(node("n1", CELL, 2, 1, at(55)).setRunning(List.of(running("a", 1, 0, 1))).build());

            driver.submit(job("b", 2).build(), at(60));

            NodeCommand suspend = driver.commands().getLast();
            assertThat(suspend.getType()).isEqualTo(NodeCommandType.SUSPEND);
            assertThat(suspend.getJobId()).isEqualTo("a");
            assertThat(suspend.getAttempt()).isEqualTo(1);
            assertThat(driver.decisions().getLast().getType()).isEqualTo(DecisionType.SUSPEND);
            assertThat(driver.lastStatus("a").getState()).isEqualTo(JobState.SUSPENDING);
            assertThat(driver.lastStatus("a").getPreemptions()).isEqualTo(1);

            driver.event(JobEvent.newBuilder(event("a", 1, "n1", JobEventType.SUSPENDED, at(62))).setCheckpointRef("ckpt-a")
                    .build());

            NodeCommand startB = driver.commands().getLast();
            assertThat(startB.getType()).isEqualTo(NodeCommandType.START);
            assertThat(startB.getJobId()).isEqualTo("b");
            assertThat(startB.getGpuIndices()).containsExactlyInAnyOrder(0, 1);
            assertThat(driver.lastStatus("a").getState()).isEqualTo(JobState.QUEUED);
            assertThat(driver.lastStatus("a").getAttainedGpuSeconds()).isEqualTo(124.0);
        }
    }

    @Test
    void shouldResumeSuspendedJobFromItsCheckpointWithNextAttempt() {
        try (SchedulerDriver driver = lasDriver()) {
            driver.heartbeat(node("n1", CELL, 2, 1, at(0)).build());
            driver.submit(job("a", 2).build(), at(0));
            driver.event(event("a", 1, "n1", JobEventType.STARTED, at(0)));
            driver.heartbeat(node("n1", CELL, 2, 1, at(55)).setRunning(List.of(running("a", 1, 0, 1))).build());
            driver.submit(job("b", 2).build(), at(60));
            driver.event(JobEvent.newBuilder(event("a", 1, "n1", JobEventType.SUSPENDED, at(62))).setCheckpointRef("ckpt-a")
                    .build());
            driver.event(event("b", 1, "n1", JobEventType.STARTED, at(63)));

            driver.event(event("b", 1, "n1", JobEventType.COMPLETED, at(80)));

            NodeCommand resume = driver.commands().getLast();
            assertThat(resume.getType()).isEqualTo(NodeCommandType.START);
            assertThat(resume.getJobId()).isEqualTo("a");
            assertThat(resume.getAttempt()).isEqualTo(2);
            assertThat(resume.getCheckpointRef()).isEqualTo("ckpt-a");
        }
    }
}
