package io.quanta.streams;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.job;
import static io.quanta.streams.testing.Records.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.schemas.CellInput;
import io.quanta.schemas.DeadLetter;
import io.quanta.schemas.DecisionType;
import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.NodeCommand;
import io.quanta.streams.testing.SchedulerDriver;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RejectionTest {

    private static final String CELL = SchedulerDriver.CELL;

    @Test
    void shouldRejectSubmissionWithoutGpusWithStatusAndDeadLetter() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.submit(job("zero", 0).build(), at(1));

            JobStatus status = driver.lastStatus("zero");
            assertThat(status.getState()).isEqualTo(JobState.REJECTED);
            assertThat(status.getReason()).contains("numGpus must be at least 1");
            DeadLetter letter = driver.deadLetters().getFirst();
            assertThat(letter.getReason()).contains("numGpus must be at least 1");
            assertThat(letter.getSourceTopic()).isEqualTo(driver.topics().submissions().name());
            assertThat(letter.getOffset()).isZero();
            assertThat(StandardCharsets.UTF_8.decode(letter.getKey()).toString()).isEqualTo("zero");
            assertThat(letter.getValue()).as("a submission is never copied (its command and environment)").isNull();
            assertThat(letter.getReason()).contains("bytes not copied");
        }
    }

    @Test
    void shouldRejectJobLargerThanItsCellOnceNodesAreKnown() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.heartbeat(node("n1", CELL, 4, 1, at(0)).build());

            driver.submit(job("huge", 16).build(), at(1));

            assertThat(driver.lastStatus("huge").getState()).isEqualTo(JobState.REJECTED);
            assertThat(driver.decisions().getLast().getType()).isEqualTo(DecisionType.REJECT);
            assertThat(driver.deadLetters()).singleElement().satisfies(dl -> {
                assertThat(dl.getReason()).contains("16 GPUs");
                assertThat(dl.getSourceTopic()).isEqualTo(driver.topics().submissions().name());
            });
        }
    }

    @Test
    void shouldKeepJobWaitingWhileTheCellHasNoNodes() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.submit(job("early", 4).build(), at(1));

            assertThat(driver.lastStatus("early").getState()).isEqualTo(JobState.QUEUED);

            driver.heartbeat(node("n1", CELL, 4, 1, at(2)).build());
            assertThat(driver.commands()).extracting(NodeCommand::getJobId).containsExactly("early");
        }
    }

    @Test
    void shouldIgnoreIdenticalResubmissionAndRecordIt() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.heartbeat(node("n1", CELL, 4, 1, at(0)).build());
            driver.submit(job("j1", 1).build(), at(1));

            driver.submit(job("j1", 1).setSubmittedAt(at(5)).build(), at(5));

            assertThat(driver.commands()).hasSize(1);
            assertThat(driver.deadLetters()).singleElement()
                    .satisfies(dl -> assertThat(dl.getReason()).startsWith("duplicate submission ignored"));
            assertThat(driver.lastStatus("j1").getState()).isEqualTo(JobState.STARTING);
        }
    }

    @Test
    void shouldRejectAJobIdWithCharactersTheRuleDoesNotAllowWithStatusAndDeadLetter() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.heartbeat(node("n1", CELL, 4, 1, at(0)).build());
            driver.submit(job("a/b c", 1).build(), at(1));

            assertThat(driver.lastStatus("a/b c").getState()).isEqualTo(JobState.REJECTED);
            assertThat(driver.deadLetters()).singleElement().satisfies(dl -> assertThat(dl.getReason())
                    .contains("job id 'a/b c' is not valid"));
            assertThat(driver.commands()).isEmpty();
        }
    }

    @Test
    void shouldNotPublishRejectedOverTheStatusOfALiveJobWhenAnInvalidJobReusesItsId() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.heartbeat(node("n1", CELL, 4, 1, at(0)).build());
            driver.submit(job("j1", 1).build(), at(1));

            driver.submit(job("j1", 0).build(), at(2));

            assertThat(driver.statuses()).noneMatch(s -> s.getState() == JobState.REJECTED);
            assertThat(driver.lastStatus("j1").getState()).isEqualTo(JobState.STARTING);
            assertThat(driver.deadLetters()).singleElement().satisfies(dl -> assertThat(dl.getReason())
                    .contains("numGpus must be at least 1").contains("already used by a different job"));
        }
    }

    @Test
    void shouldRefuseDifferentJobUnderKnownIdWithoutTouchingTheOriginal() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.heartbeat(node("n1", CELL, 4, 1, at(0)).build());
            driver.submit(job("j1", 1).build(), at(1));

            driver.submit(job("j1", 3).build(), at(2));

            assertThat(driver.deadLetters()).singleElement()
                    .satisfies(dl -> assertThat(dl.getReason()).contains("already used by a different job"));
            assertThat(driver.lastStatus("j1").getState()).isEqualTo(JobState.STARTING);
            assertThat(driver.lastStatus("j1").getNumGpus()).isEqualTo(1);
        }
    }

    @Test
    void shouldRefuseSubmissionsNotKeyedByTheirJobIdWithoutPublishingAStatusUnderThatId() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.heartbeat(node("n1", CELL, 4, 1, at(0)).build());
            // j1 as the router of j1's own partition writes it: the routes of the partition that the records
            // below land on (keyed otherwise) do not know j1
            var inbox = driver.topics().inbox();
            driver.raw(inbox.name(), CELL, inbox.valueSerde().serializer().serialize(inbox.name(),
                    CellInput.newBuilder().setCellId(CELL).setInput(job("j1", 1).build()).build()), at(1));
            assertThat(driver.lastStatus("j1").getState()).isEqualTo(JobState.STARTING);

            driver.submitKeyed("other", job("j1", 0).build(), at(2));
            driver.submitKeyed(null, job("j1", 0).build(), at(3));
            driver.submitKeyed(null, job("j1", 2).build(), at(4));

            assertThat(driver.statuses()).noneMatch(s -> s.getState() == JobState.REJECTED);
            assertThat(driver.lastStatus("j1").getState()).isEqualTo(JobState.STARTING);
            assertThat(driver.lastStatus("j1").getNumGpus()).isEqualTo(1);
            assertThat(driver.deadLetters()).extracting(DeadLetter::getReason).satisfiesExactly(
                    r -> assertThat(r).contains("submission refused", "record key 'other' is not its job id 'j1'"),
                    r -> assertThat(r).contains("submission refused", "no record key; the key must be its job id 'j1'"),
                    r -> assertThat(r).contains("submission refused", "no record key"));
            assertThat(driver.commands()).hasSize(1);
        }
    }
}
