package io.quanta.streams;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.job;
import static io.quanta.streams.testing.Records.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.core.decision.Decision;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.schemas.CellInput;
import io.quanta.schemas.DeadLetter;
import io.quanta.schemas.DecisionType;
import io.quanta.schemas.JobState;
import io.quanta.schemas.JobSubmitted;
import io.quanta.streams.deadletter.JobSecretTopics;
import io.quanta.streams.testing.SchedulerDriver;
import io.quanta.streams.testing.ScriptedPolicy;
import io.quanta.topics.TopicSpec;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A job's command line and environment never reach the decisions, the statuses or the dead letters: a submission
 * with {@code DB_PASSWORD=hunter2} that is rejected by the router, by its cell, refused in the inbox, or that makes the
 * cell engine fail, leaves no "hunter2" in any of those topics' bytes; only the START command to the node carries it.
 */
class JobSecretsTest {

    private static final String CELL = SchedulerDriver.CELL;
    private static final String SECRET = "hunter2";

    private static JobSubmitted.Builder secretJob(String id, int gpus) {
        return job(id, gpus).setEnv(Map.of("DB_PASSWORD", SECRET, "MODE", "train"))
                .setCommand(List.of("python", "train.py", "--db-password=" + SECRET));
    }

    @Test
    void shouldKeepTheSecretOutOfTheDeadLetterStatusAndDecisionsWhenTheRouterRejectsTheSubmission() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.heartbeat(node("n1", CELL, 2, 1, at(0)).build());

            driver.submit(secretJob("no-gpus", 0).build(), at(1));

            assertThat(driver.lastStatus("no-gpus").getState()).isEqualTo(JobState.REJECTED);
            assertThat(driver.deadLetters()).singleElement().satisfies(dl -> {
                assertThat(dl.getReason()).contains("numGpus must be at least 1")
                        .contains("bytes not copied: it may hold a job's command line and environment");
                assertThat(dl.getValue()).as("no copy of the submission").isNull();
                assertThat(dl.getSourceTopic()).isEqualTo(driver.topics().submissions().name());
                assertThat(dl.getOffset()).isNotNegative();
            });
            assertNoSecretIn(driver);
        }
    }

    @Test
    void shouldKeepTheSecretOutWhenTheCellRejectsAJobLargerThanTheCell() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.heartbeat(node("n1", CELL, 2, 1, at(0)).build());

            driver.submit(secretJob("too-big", 16).build(), at(1));

            assertThat(driver.lastStatus("too-big").getState()).isEqualTo(JobState.REJECTED);
            assertThat(driver.decisions()).anyMatch(d -> d.getType() == DecisionType.REJECT);
            assertThat(driver.deadLetters()).isNotEmpty().allSatisfy(dl -> assertThat(dl.getValue()).isNull());
            assertNoSecretIn(driver);
        }
    }

    @Test
    void shouldCopyNoInboxRecordIntoTheDeadLettersWhenTheInboxHoldsAnInvalidSubmission() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            TopicSpec<String, CellInput> inbox = driver.topics().inbox();
            byte[] invalid = inbox.valueSerde().serializer().serialize(inbox.name(), CellInput.newBuilder()
                    .setCellId(CELL).setInput(secretJob("direct", -1).build()).build());

            driver.raw(inbox.name(), CELL, invalid, at(1));

            assertThat(driver.deadLetters()).singleElement().satisfies(dl -> {
                assertThat(dl.getReason()).contains("numGpus must be at least 1").contains("not copied");
                assertThat(dl.getValue()).isNull();
            });
            assertNoSecretIn(driver);
        }
    }

    @Test
    void shouldCopyNoValueWhenASubmissionMakesTheCellEngineFail() {
        Function<ClusterSnapshot, List<Decision>> explodes = snapshot -> {
            if (snapshot.job("boom").isPresent()) {
                throw new IllegalStateException("policy bug triggered by boom");
            }
            return List.of();
        };
        try (SchedulerDriver driver = new SchedulerDriver(SchedulerSettings.defaults().withPolicy("scripted"),
                StoreOptions.inMemory(), ScriptedPolicy.registry(ScriptedPolicy.plans(explodes)))) {
            driver.heartbeat(node("n1", CELL, 4, 1, at(0)).build());

            driver.submit(secretJob("boom", 1).build(), at(1));

            assertThat(driver.deadLetters()).singleElement().satisfies(dl -> {
                assertThat(dl.getReason()).contains("policy bug triggered by boom").contains("not copied");
                assertThat(dl.getSourceTopic()).isEqualTo(driver.topics().inbox().name());
                assertThat(dl.getValue()).isNull();
            });
            assertNoSecretIn(driver);
        }
    }

    @Test
    void shouldCopyNoUndecodableSubmissionButStillCopyOtherInputs() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            byte[] garbage = ("DB_PASSWORD=" + SECRET).getBytes(StandardCharsets.UTF_8);

            driver.raw(driver.topics().submissions().name(), "j", garbage, at(1));
            driver.raw(driver.topics().heartbeats().name(), "n", garbage, at(1));

            assertThat(driver.deadLetters()).hasSize(2).satisfiesExactly(
                    submission -> {
                        assertThat(submission.getValue()).isNull();
                        assertThat(submission.getReason()).contains("magic byte")
                                .contains("[value of " + garbage.length + " bytes not copied");
                    },
                    heartbeat -> assertThat(heartbeat.getValue().remaining()).isEqualTo(garbage.length));
        }
    }

    @Test
    void shouldSendTheEnvironmentOnlyInTheStartCommandOfAnAcceptedJob() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.heartbeat(node("n1", CELL, 2, 1, at(0)).build());

            driver.submit(secretJob("accepted", 1).build(), at(1));

            assertThat(driver.commands()).singleElement().satisfies(c -> {
                assertThat(c.getEnv()).containsEntry("DB_PASSWORD", SECRET);
                assertThat(c.getCommand()).contains("--db-password=" + SECRET);
            });
            assertThat(driver.decisions()).anyMatch(d -> d.getType() == DecisionType.START);
            assertNoSecretIn(driver);
        }
    }

    @Test
    void shouldTreatSubmissionsTenantTopicsAndTheInboxAsCarryingSecrets() {
        JobSecretTopics topics = new JobSecretTopics("quanta.jobs.submissions", "quanta.cells.inbox");

        assertThat(topics.contains("quanta.jobs.submissions")).isTrue();
        assertThat(topics.contains("quanta.jobs.submissions.vision")).isTrue();
        assertThat(topics.contains("quanta.cells.inbox")).isTrue();
        assertThat(topics.contains("quanta.nodes.heartbeats")).isFalse();
        assertThat(topics.contains("quanta.jobs.submissionsX")).isFalse();
        assertThat(topics.contains(null)).isFalse();
    }

    /** The decisions, statuses and dead letters written so far, as bytes on their topics, hold no secret. */
    private static void assertNoSecretIn(SchedulerDriver driver) {
        var topics = driver.topics();
        for (var decision : driver.decisions()) {
            assertThat(text(topics.decisions().valueSerde().serializer().serialize(topics.decisions().name(),
                    decision))).as("decision " + decision.getType()).doesNotContain(SECRET);
        }
        for (var status : driver.statuses()) {
            assertThat(text(topics.status().valueSerde().serializer().serialize(topics.status().name(), status)))
                    .as("status " + status.getState()).doesNotContain(SECRET);
        }
        for (DeadLetter letter : driver.deadLetters()) {
            assertThat(text(topics.deadLetter().valueSerde().serializer().serialize(topics.deadLetter().name(),
                    letter))).as("dead letter " + letter.getReason()).doesNotContain(SECRET);
        }
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }
}
