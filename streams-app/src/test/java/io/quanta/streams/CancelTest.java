package io.quanta.streams;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.event;
import static io.quanta.streams.testing.Records.job;
import static io.quanta.streams.testing.Records.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.schemas.DecisionType;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.JobState;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeCommandType;
import io.quanta.streams.testing.SchedulerDriver;
import org.junit.jupiter.api.Test;

class CancelTest {

    private static final String CELL = SchedulerDriver.CELL;

    @Test
    void shouldCancelQueuedJobAtOnce() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.heartbeat(node("n1", CELL, 1, 1, at(0)).build());
            driver.submit(job("j1", 1).build(), at(1));
            driver.submit(job("j2", 1).build(), at(2));

            driver.cancel("j2", at(3));

            assertThat(driver.lastStatus("j2").getState()).isEqualTo(JobState.CANCELLED);
            assertThat(driver.commands()).extracting(NodeCommand::getJobId).doesNotContain("j2");
        }
    }

    @Test
    void shouldKillRunningJobAndFinishItCancelledWhenItStops() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.heartbeat(node("n1", CELL, 1, 1, at(0)).build());
            driver.submit(job("j1", 1).build(), at(1));
            driver.submit(job("j2", 1).build(), at(2));
            driver.event(event("j1", 1, "n1", JobEventType.STARTED, at(3)));

            driver.cancel("j1", at(4));

            NodeCommand kill = driver.commands().getLast();
            assertThat(kill.getType()).isEqualTo(NodeCommandType.KILL);
            assertThat(kill.getJobId()).isEqualTo("j1");
            assertThat(driver.decisions().getLast().getType()).isEqualTo(DecisionType.KILL);
            assertThat(driver.lastStatus("j1").getState()).isEqualTo(JobState.RUNNING);

            driver.event(event("j1", 1, "n1", JobEventType.FAILED, at(5)));

            assertThat(driver.lastStatus("j1").getState()).isEqualTo(JobState.CANCELLED);
            NodeCommand next = driver.commands().getLast();
            assertThat(next.getType()).isEqualTo(NodeCommandType.START);
            assertThat(next.getJobId()).isEqualTo("j2");
        }
    }

    @Test
    void shouldRecordCancelOfUnknownJobAsDeadLetter() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.cancel("nope", at(1));

            assertThat(driver.deadLetters()).singleElement()
                    .satisfies(dl -> assertThat(dl.getReason()).contains("cancel of job nope which cell " + SchedulerDriver.CELL + " does not know"));
        }
    }
}
