package io.quanta.node;

import io.quanta.topics.TopicSpec;
import io.quanta.topics.auth.NodeMac;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A record this node publishes, kept unserialised in the {@link Outbox} until it can be sent (serialising may need the
 * schema registry, which may be down too).
 *
 * @param kind what it is (only telemetry may be dropped under pressure)
 * @param spec the topic
 * @param key the record key
 * @param value the record value
 * @param timestamp the record timestamp
 * @param onDelivered run once the broker acknowledged the record (journal clean-up, fencing contact)
 * @param <V> the value type
 */
public record Outbound<V>(Kind kind, TopicSpec<String, V> spec, String key, V value, Instant timestamp,
                          Runnable onDelivered) {

    /** The kinds of records a node publishes, with the logical topic id their MAC covers. */
    public enum Kind {
        EVENT("events"), TELEMETRY("telemetry"), HEARTBEAT("heartbeats");

        private final String topicId;

        Kind(String topicId) {
            this.topicId = topicId;
        }

        /** The topic id signed into the record's MAC. */
        public String topicId() {
            return topicId;
        }
    }

    public Outbound {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(timestamp, "timestamp");
        Objects.requireNonNull(onDelivered, "onDelivered");
    }

    /** A record nobody waits on. */
    public Outbound(Kind kind, TopicSpec<String, V> spec, String key, V value, Instant timestamp) {
        this(kind, spec, key, value, timestamp, () -> { });
    }

    /** The serialised producer record (value in the Confluent wire format), unsigned. */
    public ProducerRecord<String, byte[]> toProducerRecord() {
        return toProducerRecord(null);
    }

    /**
     * The serialised producer record, signed with {@code nodeKey} ({@link NodeMac} header) when one is given: with
     * node authentication on, the scheduler counts only signed records of admitted nodes.
     */
    public ProducerRecord<String, byte[]> toProducerRecord(byte[] nodeKey) {
        byte[] bytes = spec.valueSerde().serializer().serialize(spec.name(), value);
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(spec.name(), null, timestamp.toEpochMilli(), key,
                bytes);
        if (nodeKey != null) {
            record.headers().add(NodeMac.HEADER, NodeMac.sign(nodeKey, kind.topicId(),
                    key.getBytes(StandardCharsets.UTF_8), bytes));
        }
        return record;
    }

    @Override
    public String toString() {
        return kind + " to " + spec.name() + " key " + key;
    }
}
