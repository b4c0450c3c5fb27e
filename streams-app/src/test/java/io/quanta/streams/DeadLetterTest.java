package io.quanta.streams;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.event;
import static io.quanta.streams.testing.Records.job;
import static io.quanta.streams.testing.Records.node;
import static io.quanta.streams.testing.Records.telemetry;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.schemas.DeadLetter;
import io.quanta.schemas.DecisionType;
import io.quanta.schemas.JobEventType;
import io.quanta.streams.testing.SchedulerDriver;
import io.quanta.topics.serde.MalformedRecordException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DeadLetterTest {

    private static final String CELL = SchedulerDriver.CELL;
    private static final byte[] GARBAGE = "not avro".getBytes(StandardCharsets.UTF_8);

    @Test
    void shouldDeadLetterUndecodableBytesOnEveryInputAndKeepGoing() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            var topics = driver.topics();
            for (String topic : new String[] {topics.submissions().name(), topics.heartbeats().name(),
                    topics.telemetry().name(), topics.events().name()}) {
                driver.raw(topic, "k", GARBAGE, at(1));
            }
            driver.raw(topics.submissions().name(), "k", new byte[] {0, 0, 0, 0, 42, 1}, at(1));

            assertThat(driver.deadLetters()).hasSize(5);
            DeadLetter first = driver.deadLetters().getFirst();
            assertThat(first.getReason()).contains("magic byte");
            assertThat(first.getErrorClass()).isEqualTo(MalformedRecordException.class.getName());
            assertThat(first.getValue()).as("submissions are never copied").isNull();
            assertThat(bytes(driver.deadLetters().get(1).getValue())).as("a heartbeat is").isEqualTo(GARBAGE);
            assertThat(driver.deadLetters().getLast().getReason()).contains("schema id unknown");

            driver.heartbeat(node("n1", CELL, 1, 1, at(2)).build());
            driver.submit(job("j1", 1).build(), at(3));
            assertThat(driver.commands()).hasSize(1);
        }
    }

    @Test
    void shouldDeadLetterTelemetryAndEventsOfUnknownJobs() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.telemetry(telemetry("ghost", 1, "n1", 3.0, at(1)));
            driver.event(event("ghost", 1, "n1", JobEventType.STARTED, at(1)));

            assertThat(driver.deadLetters()).extracting(DeadLetter::getReason)
                    .containsExactly("telemetry for unknown job ghost", "event for unknown job ghost");
        }
    }

    @Test
    void shouldRecordEventFromNodeOutsideTheCell() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.heartbeat(node("n1", CELL, 1, 1, at(0)).build());
            driver.submit(job("j1", 1).build(), at(1));

            driver.event(event("j1", 1, "stranger", JobEventType.COMPLETED, at(2)));

            assertThat(driver.decisions().getLast().getType()).isEqualTo(DecisionType.IGNORED_INPUT);
            assertThat(driver.deadLetters()).singleElement().satisfies(dl -> {
                assertThat(dl.getReason()).contains("node is not in cell " + CELL);
                assertThat(dl.getSourceTopic()).isEqualTo(driver.topics().events().name());
            });
        }
    }

    @Test
    void shouldDeadLetterHeartbeatWithInvalidCellId() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.heartbeat(node("n1", "bad|cell", 1, 1, at(0)).build());

            assertThat(driver.deadLetters()).singleElement()
                    .satisfies(dl -> assertThat(dl.getReason()).contains("cell id 'bad|cell'"));
        }
    }

    @Test
    void shouldRefuseAKeyThatIsNotUtf8TextWithoutQuotingIt() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            byte[] value = driver.topics().submissions().valueSerde().serializer()
                    .serialize(driver.topics().submissions().name(), io.quanta.streams.testing.Records.request(
                            job("j1", 1).build()));
            driver.rawKey(driver.topics().submissions().name(), new byte[] {(byte) 0xC3, 0x28, (byte) 0xFF}, value,
                    at(1));

            assertThat(driver.deadLetters()).singleElement().satisfies(dl -> assertThat(dl.getReason())
                    .startsWith("record key is not UTF-8 text (3 bytes): keys are job or node ids written as plain "
                            + "strings [value of " + value.length + " bytes not copied"));
            assertThat(driver.lastStatus("j1")).isNull();
        }
    }

    @Test
    void shouldRouteAnEventThatNamesItsCellWithoutTheJobRoute() {
        try (SchedulerDriver driver = SchedulerDriver.withPolicy("fifo")) {
            driver.heartbeat(node("n1", CELL, 1, 1, at(0)).build());
            driver.submit(job("j1", 1).build(), at(1));

            driver.event(io.quanta.schemas.JobEvent.newBuilder(event("ghost", 1, "n1", JobEventType.STARTED, at(2)))
                    .setCellId(CELL).build());
            driver.event(io.quanta.schemas.JobEvent.newBuilder(event("j1", 1, "n1", JobEventType.STARTED, at(3)))
                    .setCellId(CELL).build());

            assertThat(driver.deadLetters()).singleElement()
                    .satisfies(dl -> assertThat(dl.getReason()).contains("job unknown in cell " + CELL));
            assertThat(driver.lastStatus("j1").getState()).isEqualTo(io.quanta.schemas.JobState.RUNNING);
        }
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] out = new byte[buffer.remaining()];
        buffer.duplicate().get(out);
        return out;
    }
}
