package io.quanta.streams;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.schemas.DeadLetter;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.NodeAdmission;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.streams.testing.SchedulerDriver;
import io.quanta.topics.auth.NodeMac;
import io.quanta.topics.auth.NodeSecret;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Node authentication at the routers: only admitted nodes that sign their records with their own key are heard;
 * forged, unsigned, unadmitted and absurd-epoch records are dead-lettered with the reason and change nothing.
 */
class NodeAuthTest {

    private final NodeSecret secret = NodeSecret.generate();
    private final SchedulerDriver driver = new SchedulerDriver(SchedulerSettings.defaults().withPolicy("fifo")
            .withSafeguards(SchedulerSettings.defaults().safeguards().withNodeSecret(secret)),
            StoreOptions.inMemory());

    @AfterEach
    void close() {
        driver.close();
    }

    private void admit(String nodeId, boolean admitted, Instant at) {
        driver.driver().createInputTopic(driver.topics().admissions().name(), new StringSerializer(),
                driver.topics().admissions().valueSerde().serializer())
                .pipeInput(nodeId, NodeAdmission.newBuilder().setNodeId(nodeId).setAdmitted(admitted).setAt(at)
                        .setBy("test").build(), at);
    }

    private void heartbeat(NodeHeartbeat beat, byte[] nodeKey) {
        byte[] value = driver.topics().heartbeats().valueSerde().serializer()
                .serialize(driver.topics().heartbeats().name(), beat);
        pipe(driver.topics().heartbeats().name(), "heartbeats", beat.getNodeId(), value, nodeKey, beat.getSentAt());
    }

    private void event(JobEvent event, byte[] nodeKey) {
        byte[] value = driver.topics().events().valueSerde().serializer().serialize(driver.topics().events().name(),
                event);
        pipe(driver.topics().events().name(), "events", event.getJobId(), value, nodeKey, event.getAt());
    }

    private void pipe(String topic, String topicId, String key, byte[] value, byte[] nodeKey, Instant at) {
        byte[] keyBytes = key.getBytes(StandardCharsets.UTF_8);
        RecordHeaders headers = new RecordHeaders();
        if (nodeKey != null) {
            headers.add(NodeMac.HEADER, NodeMac.sign(nodeKey, topicId, keyBytes, value));
        }
        driver.clockAt(at);
        driver.driver().createInputTopic(topic, new ByteArraySerializer(), new ByteArraySerializer())
                .pipeInput(new TestRecord<>(keyBytes, value, headers, at));
    }

    private int heartbeatsInInbox() {
        return driver.inbox().size();
    }

    @Test
    void shouldHearAnAdmittedNodeThatSignsWithItsOwnKey() {
        admit("n1", true, at(0));

        heartbeat(node("n1", SchedulerDriver.CELL, 4, 1, at(1)).build(), secret.keyOf("n1"));

        assertThat(driver.deadLetters()).isEmpty();
        assertThat(heartbeatsInInbox()).isEqualTo(1);
    }

    @Test
    void shouldDeadLetterAForgedHeartbeatOfAnAdmittedNodeAndChangeNothing() {
        admit("n1", true, at(0));
        admit("mallory", true, at(0));

        heartbeat(node("n1", SchedulerDriver.CELL, 4, 1, at(1)).build(), secret.keyOf("mallory"));
        heartbeat(node("n1", SchedulerDriver.CELL, 4, 1, at(2)).build(), null);
        heartbeat(node("n1", SchedulerDriver.CELL, 4, 1, at(3)).build(), new byte[32]);

        assertThat(heartbeatsInInbox()).isZero();
        assertThat(driver.deadLetters()).extracting(DeadLetter::getReason).satisfiesExactly(
                r -> assertThat(r).contains("does not verify under node 'n1''s key"),
                r -> assertThat(r).contains("no quanta-node-mac header"),
                r -> assertThat(r).contains("does not verify"));
    }

    @Test
    void shouldDeadLetterAHeartbeatOfANodeNeverAdmittedOrRevoked() {
        admit("n2", true, at(0));
        admit("n2", false, at(1));

        heartbeat(node("n1", SchedulerDriver.CELL, 4, 1, at(2)).build(), secret.keyOf("n1"));
        heartbeat(node("n2", SchedulerDriver.CELL, 4, 1, at(3)).build(), secret.keyOf("n2"));

        assertThat(heartbeatsInInbox()).isZero();
        assertThat(driver.deadLetters()).extracting(DeadLetter::getReason).satisfiesExactly(
                r -> assertThat(r).contains("node 'n1' is not admitted"),
                r -> assertThat(r).contains("node 'n2' is not admitted"));
    }

    @Test
    void shouldDeadLetterAnAbsurdEpochSoNoRecordCanLockANodeOut() {
        admit("n1", true, at(0));

        heartbeat(node("n1", SchedulerDriver.CELL, 4, Long.MAX_VALUE, at(1)).build(), secret.keyOf("n1"));
        heartbeat(node("n1", SchedulerDriver.CELL, 4, at(2).toEpochMilli(), at(2)).build(), secret.keyOf("n1"));

        assertThat(driver.deadLetters()).singleElement().extracting(DeadLetter::getReason).asString()
                .contains("epoch " + Long.MAX_VALUE, "ahead of the record's time");
        assertThat(heartbeatsInInbox()).isEqualTo(1);
    }

    @Test
    void shouldDeadLetterAJobEventForgedForAnotherNode() {
        admit("n1", true, at(0));
        admit("mallory", true, at(0));

        event(io.quanta.streams.testing.Records.event("j1", 1, "n1", JobEventType.COMPLETED, at(1)),
                secret.keyOf("mallory"));

        assertThat(driver.deadLetters()).singleElement().extracting(DeadLetter::getReason).asString()
                .contains("does not verify under node 'n1''s key");
        assertThat(driver.inbox()).isEmpty();
    }
}
