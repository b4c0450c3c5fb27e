package io.quanta.streams;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.event;
import static io.quanta.streams.testing.Records.job;
import static io.quanta.streams.testing.Records.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.core.decision.Decision;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.schemas.CellInput;
import io.quanta.schemas.DeadLetter;
import io.quanta.schemas.DecisionType;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.JobState;
import io.quanta.schemas.NodeCommandType;
import io.quanta.streams.deadletter.DeadLetters;
import io.quanta.streams.testing.SchedulerDriver;
import io.quanta.streams.testing.ScriptedPolicy;
import io.quanta.topics.serde.WireFormat;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Records built to hurt: each one ends in the dead letters with a reason and the stream goes on, and a record the
 * cell engine fails on changes nothing.
 */
class PoisonRecordTest {

    private static final String CELL = SchedulerDriver.CELL;

    @Test
    void shouldDeadLetterAnAvroLengthPrefixOfGigabytesAndKeepScheduling() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            byte[] header = header(driver, driver.topics().events().name(),
                    driver.topics().events().valueSerde().serializer()
                            .serialize(driver.topics().events().name(), event("j", 1, "n", JobEventType.STARTED,
                                    at(0))));
            byte[] poison = concat(header, new byte[] {(byte) 0xFE, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F});

            driver.raw(driver.topics().events().name(), "j", poison, at(1));

            assertThat(driver.deadLetters()).singleElement().satisfies(dl -> {
                assertThat(dl.getReason()).contains("Avro payload truncated or corrupt");
                assertThat(dl.getSourceTopic()).isEqualTo(driver.topics().events().name());
            });
            assertSchedulesAJob(driver, 2);
        }
    }

    @Test
    void shouldRefuseAValueOverTheInputLimitUnreadAndCopyOnlyItsStart() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            byte[] huge = new byte[1_000_000];
            new Random(7).nextBytes(huge);
            huge[0] = 0;

            driver.raw(driver.topics().heartbeats().name(), "n1", huge, at(1));

            assertThat(driver.deadLetters()).singleElement().satisfies(dl -> {
                assertThat(dl.getReason()).contains("1000000 bytes exceeds scheduler.input.max.bytes (65536)")
                        .contains("value cut to its first 65536 of 1000000 bytes");
                assertThat(dl.getValue().remaining()).isEqualTo(DeadLetters.MAX_VALUE_COPY);
            });
            assertSchedulesAJob(driver, 2);
        }
    }

    @Test
    void shouldDeadLetterInboxRecordsThatNoRouterWouldHaveWritten() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            var inbox = driver.topics().inbox();
            byte[] badCell = inbox.valueSerde().serializer().serialize(inbox.name(), CellInput.newBuilder()
                    .setCellId("").setInput(job("x", 1).build()).build());
            byte[] badJob = inbox.valueSerde().serializer().serialize(inbox.name(), CellInput.newBuilder()
                    .setCellId(CELL).setInput(job("y", -4).build()).build());

            driver.raw(inbox.name(), "", badCell, at(1));
            driver.raw(inbox.name(), CELL, badJob, at(1));
            driver.raw(inbox.name(), CELL, new byte[] {0, 0, 0, 0, 1, (byte) 0xFE, (byte) 0xFF, (byte) 0xFF}, at(1));

            assertThat(driver.deadLetters()).extracting(DeadLetter::getReason).satisfiesExactly(
                    r -> assertThat(r).contains("invalid cell id"),
                    r -> assertThat(r).contains("numGpus must be at least 1"),
                    r -> assertThat(r).isNotBlank());
            assertThat(driver.lastStatus("y")).isNull();
            assertSchedulesAJob(driver, 2);
        }
    }

    @Test
    void shouldLeaveTheCellUnchangedWhenTheEngineFailsOnARecord() {
        Function<ClusterSnapshot, List<Decision>> explodesOnBoom = snapshot -> {
            if (snapshot.job("boom").isPresent()) {
                throw new IllegalStateException("policy bug triggered by boom");
            }
            return List.of();
        };
        try (SchedulerDriver driver = new SchedulerDriver(SchedulerSettings.defaults().withPolicy("scripted"),
                StoreOptions.inMemory(), ScriptedPolicy.registry(ScriptedPolicy.plans(explodesOnBoom)))) {
            driver.heartbeat(node("n1", CELL, 4, 1, at(0)).build());
            driver.submit(job("before", 1).build(), at(1));
            long seqBefore = driver.meta(CELL).seq();
            int decisionsBefore = driver.decisions().size();
            int statusesBefore = driver.statuses().size();

            driver.submit(job("boom", 1).build(), at(2));

            assertThat(driver.deadLetters()).singleElement().satisfies(dl -> {
                assertThat(dl.getReason()).contains("processing failed in " + SchedulerTopology.CELL_SCHEDULER)
                        .contains("policy bug triggered by boom").contains("state is unchanged");
                assertThat(dl.getSourceTopic()).isEqualTo(driver.topics().inbox().name());
            });
            assertThat(driver.meta(CELL).seq()).isEqualTo(seqBefore);
            assertThat(driver.decisions()).hasSize(decisionsBefore);
            assertThat(driver.statuses()).hasSize(statusesBefore);
            assertThat(driver.lastStatus("boom")).isNull();

            driver.submit(job("after", 1).build(), at(3));
            assertThat(driver.lastStatus("after").getState()).isEqualTo(JobState.QUEUED);
        }
    }

    @Test
    void shouldDeadLetterAHeartbeatStampedAnHourAheadAndLoseNoNode() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            for (String n : List.of("n1", "n2", "n3")) {
                driver.heartbeat(node(n, CELL, 1, 1, at(0)).build());
            }
            for (String j : List.of("j1", "j2", "j3")) {
                driver.submit(job(j, 1).build(), at(1));
            }
            driver.commands().forEach(c -> driver.event(event(c.getJobId(), c.getAttempt(), c.getNodeId(),
                    JobEventType.STARTED, at(2))));

            driver.heartbeatStamped(node("n1", CELL, 1, 1, at(3600)).setRunning(List.of()).build(), at(3600));
            for (int t = 5; t <= 120; t += 5) {
                for (String n : List.of("n1", "n2", "n3")) {
                    String running = driver.commands().stream().filter(c -> c.getNodeId().equals(n))
                            .findFirst().orElseThrow().getJobId();
                    driver.heartbeat(node(n, CELL, 1, 1, at(t))
                            .setRunning(List.of(io.quanta.streams.testing.Records.running(running, 1, 0))).build());
                }
            }

            assertThat(driver.deadLetters()).singleElement().satisfies(dl -> assertThat(dl.getReason())
                    .contains("ahead of the scheduler's clock").contains("scheduler.max.clock.skew.ms"));
            assertThat(driver.decisions()).noneMatch(d -> d.getType() == DecisionType.REQUEUE);
            assertThat(driver.commands()).extracting(c -> c.getType()).containsOnly(NodeCommandType.START)
                    .hasSize(3);
            for (String j : List.of("j1", "j2", "j3")) {
                assertThat(driver.lastStatus(j).getState()).isEqualTo(JobState.RUNNING);
            }
        }
    }

    private static void assertSchedulesAJob(SchedulerDriver driver, long at) {
        driver.heartbeat(node("healthy", CELL, 1, 1, at(at)).build());
        driver.submit(job("valid-" + at, 1).build(), at(at + 1));
        assertThat(driver.commands()).last().satisfies(c -> {
            assertThat(c.getJobId()).isEqualTo("valid-" + at);
            assertThat(c.getType()).isEqualTo(NodeCommandType.START);
        });
    }

    private static byte[] header(SchedulerDriver driver, String topic, byte[] serialized) {
        return Arrays.copyOf(serialized, WireFormat.HEADER_LENGTH);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        return ByteBuffer.allocate(a.length + b.length).put(a).put(b).array();
    }
}
