package io.quanta.streams;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.event;
import static io.quanta.streams.testing.Records.job;
import static io.quanta.streams.testing.Records.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.schemas.JobEventType;
import io.quanta.schemas.JobState;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeCommandType;
import io.quanta.streams.testing.SchedulerDriver;
import org.junit.jupiter.api.Test;

class CompletionTest {

    private static final String CELL = SchedulerDriver.CELL;

    @Test
    void shouldKeepSecondJobWaitingWhileGpusAreBusy() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.heartbeat(node("n1", CELL, 2, 1, at(0)).build());
            driver.submit(job("j1", 2).build(), at(1));
            driver.submit(job("j2", 2).build(), at(2));

            assertThat(driver.commands()).extracting(NodeCommand::getJobId).containsExactly("j1");
            assertThat(driver.lastStatus("j2").getState()).isEqualTo(JobState.QUEUED);
        }
    }

    @Test
    void shouldStartWaitingJobWhenCompletionFreesGpus() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.heartbeat(node("n1", CELL, 2, 1, at(0)).build());
            driver.submit(job("j1", 2).build(), at(1));
            driver.submit(job("j2", 2).build(), at(2));
            driver.event(event("j1", 1, "n1", JobEventType.STARTED, at(3)));
            driver.heartbeat(node("n1", CELL, 2, 1, at(30)).build());

            driver.event(event("j1", 1, "n1", JobEventType.COMPLETED, at(50)));

            NodeCommand start = driver.commands().getLast();
            assertThat(start.getType()).isEqualTo(NodeCommandType.START);
            assertThat(start.getJobId()).isEqualTo("j2");
            assertThat(start.getGpuIndices()).containsExactlyInAnyOrder(0, 1);
            assertThat(start.getIssuedAt()).isEqualTo(at(50));
            assertThat(driver.lastStatus("j1").getState()).isEqualTo(JobState.FINISHED);
            assertThat(driver.lastStatus("j1").getPlacement()).isEmpty();
        }
    }

    @Test
    void shouldLearnTheServiceOfEachTenantsCompletedJobs() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("quanta")) {
            driver.heartbeat(node("n1", CELL, 2, 1, at(0)).build());
            driver.submit(job("a1", 1).setTenant("team-a").build(), at(1));
            driver.submit(job("b1", 1).setTenant("team-b").build(), at(1));
            driver.event(event("a1", 1, "n1", JobEventType.STARTED, at(2)));
            driver.event(event("b1", 1, "n1", JobEventType.STARTED, at(2)));
            driver.heartbeat(node("n1", CELL, 2, 1, at(30)).build());

            driver.event(event("a1", 1, "n1", JobEventType.COMPLETED, at(52)));

            var learned = driver.serviceDistribution(CELL);
            assertThat(learned.observed()).isEqualTo(1);
            assertThat(learned.tenants().samples("team-a")).as("50 s on 1 GPU").containsExactly(50.0);
            assertThat(learned.tenants().samples("team-b")).as("still running").isEmpty();
        }
    }

    @Test
    void shouldSpreadGangOverNodesAndSendStartToEach() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.heartbeat(node("n1", CELL, 2, 1, at(0)).build());
            driver.heartbeat(node("n2", CELL, 2, 1, at(0)).build());

            driver.submit(job("big", 4).build(), at(1));

            assertThat(driver.commands()).extracting(NodeCommand::getNodeId).containsExactly("n1", "n2");
            assertThat(driver.commands()).allSatisfy(c -> assertThat(c.getPlacement()).hasSize(4));
            driver.event(event("big", 1, "n1", JobEventType.STARTED, at(2)));
            driver.event(event("big", 1, "n2", JobEventType.STARTED, at(2)));
            driver.event(event("big", 1, "n1", JobEventType.COMPLETED, at(10)));
            int decisionsAfterFirstEnd = driver.decisions().size();
            driver.event(event("big", 1, "n2", JobEventType.COMPLETED, at(10)));
            assertThat(driver.decisions()).hasSize(decisionsAfterFirstEnd);
            assertThat(driver.deadLetters()).isEmpty();
            assertThat(driver.lastStatus("big").getState()).isEqualTo(JobState.FINISHED);
            assertThat(driver.lastStatus("big").getAttainedGpuSeconds()).isEqualTo(32.0);
        }
    }
}
