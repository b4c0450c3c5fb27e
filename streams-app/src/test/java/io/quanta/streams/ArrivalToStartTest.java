package io.quanta.streams;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.event;
import static io.quanta.streams.testing.Records.job;
import static io.quanta.streams.testing.Records.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.schemas.DecisionType;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeCommandType;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.streams.testing.SchedulerDriver;
import java.util.List;
import org.junit.jupiter.api.Test;

class ArrivalToStartTest {

    private static final String CELL = SchedulerDriver.CELL;

    @Test
    void shouldStartJobOnFreeGpusWhenItArrives() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.heartbeat(node("n1", CELL, 4, 1, at(0)).build());

            driver.submit(job("j1", 2).setExpectedDurationSeconds(600L).build(), at(1));

            List<NodeCommand> commands = driver.commands();
            assertThat(commands).hasSize(1);
            NodeCommand start = commands.getFirst();
            assertThat(start.getType()).isEqualTo(NodeCommandType.START);
            assertThat(start.getNodeId()).isEqualTo("n1");
            assertThat(start.getEpoch()).isEqualTo(1);
            assertThat(start.getAttempt()).isEqualTo(1);
            assertThat(start.getGpuIndices()).hasSize(2);
            assertThat(start.getPlacement()).hasSize(2);
            assertThat(start.getCommand()).containsExactly("python", "train.py");
            assertThat(start.getExpectedDurationSeconds()).isEqualTo(600L);
            assertThat(start.getProfile().getModelName()).isEqualTo("resnet50");
            assertThat(start.getIssuedAt()).isEqualTo(at(1));
            List<SchedulingDecision> decisions = driver.decisions();
            assertThat(decisions).extracting(SchedulingDecision::getType)
                    .containsExactly(DecisionType.CONFIG, DecisionType.START);
            assertThat(decisions).extracting(SchedulingDecision::getSeq).containsExactly(1L, 2L);
            assertThat(decisions.get(1).getReason()).startsWith("fifo");
            assertThat(decisions.get(1).getStreamTime()).isEqualTo(at(1));
            assertThat(decisions.get(1).getInboxOffsetTo()).isGreaterThanOrEqualTo(decisions.get(1).getInboxOffsetFrom());
            assertThat(driver.lastStatus("j1").getState()).isEqualTo(JobState.STARTING);
        }
    }

    @Test
    void shouldRunAndFinishWithAttainedServiceFromStreamTime() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.heartbeat(node("n1", CELL, 4, 1, at(0)).build());
            driver.submit(job("j1", 2).build(), at(1));

            driver.event(event("j1", 1, "n1", JobEventType.STARTED, at(2)));
            JobStatus running = driver.lastStatus("j1");
            driver.heartbeat(node("n1", CELL, 4, 1, at(20)).build());
            driver.event(event("j1", 1, "n1", JobEventType.COMPLETED, at(102)));

            assertThat(running.getState()).isEqualTo(JobState.RUNNING);
            JobStatus finished = driver.lastStatus("j1");
            assertThat(finished.getState()).isEqualTo(JobState.FINISHED);
            assertThat(finished.getAttainedGpuSeconds()).isEqualTo(200.0);
            assertThat(finished.getFirstStartedAt()).isEqualTo(at(2));
            assertThat(finished.getFinishedAt()).isEqualTo(at(102));
            assertThat(driver.decisions()).extracting(SchedulingDecision::getType).endsWith(DecisionType.FINISH);
        }
    }
}
