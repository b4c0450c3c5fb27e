package io.quanta.streams;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.event;
import static io.quanta.streams.testing.Records.job;
import static io.quanta.streams.testing.Records.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.schemas.DecisionType;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.JobState;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeCommandType;
import io.quanta.streams.testing.SchedulerDriver;
import org.junit.jupiter.api.Test;

class FailureRetryTest {

    private static final String CELL = SchedulerDriver.CELL;

    private static JobEvent failed(String jobId, int attempt, long second) {
        return JobEvent.newBuilder(event(jobId, attempt, "n1", JobEventType.FAILED, at(second)))
                .setMessage("CUDA out of memory").setExitCode(1).build();
    }

    @Test
    void shouldRetryFailedAttemptWithNextAttempt() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.heartbeat(node("n1", CELL, 2, 1, at(0)).build());
            driver.submit(job("j1", 1).setMaxRetries(2).build(), at(1));
            driver.event(event("j1", 1, "n1", JobEventType.STARTED, at(2)));

            driver.event(failed("j1", 1, 5));

            NodeCommand retry = driver.commands().getLast();
            assertThat(retry.getType()).isEqualTo(NodeCommandType.START);
            assertThat(retry.getAttempt()).isEqualTo(2);
            assertThat(driver.decisions()).extracting(d -> d.getType()).contains(DecisionType.REQUEUE);
            assertThat(driver.decisions().stream().filter(d -> d.getType() == DecisionType.REQUEUE).findFirst()
                    .orElseThrow().getReason()).contains("CUDA out of memory").contains("retry 1 of 2");
        }
    }

    @Test
    void shouldFailForGoodWithLastMessageWhenRetriesAreUsedUp() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.heartbeat(node("n1", CELL, 2, 1, at(0)).build());
            driver.submit(job("j1", 1).setMaxRetries(1).build(), at(1));
            driver.event(failed("j1", 1, 2));
            int startsAfterFirstFailure = starts(driver);

            driver.event(failed("j1", 2, 3));

            assertThat(starts(driver)).isEqualTo(startsAfterFirstFailure).isEqualTo(2);
            assertThat(driver.lastStatus("j1").getState()).isEqualTo(JobState.FAILED);
            assertThat(driver.lastStatus("j1").getReason()).contains("used its 1 retries").contains("CUDA out of memory");
            assertThat(driver.lastStatus("j1").getPlacement()).isEmpty();
        }
    }

    private static int starts(SchedulerDriver driver) {
        return (int) driver.commands().stream().filter(c -> c.getType() == NodeCommandType.START).count();
    }
}
