package io.quanta.topics;

import io.quanta.topics.serde.SubjectNames;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.Serde;

/**
 * An immutable, typed description of one topic: its name, partitions, replication factor ({@code -1} for the
 * broker default), cleanup policy, retention ({@link #INFINITE_RETENTION} keeps records forever; ignored for compacted
 * topics), the timestamp type of its records ({@code message.timestamp.type}) and the serdes of its keys and values.
 */
public record TopicSpec<K, V>(String name, int partitions, short replicationFactor, CleanupPolicy cleanupPolicy,
        long retentionMs, TimestampType timestampType, Serde<K> keySerde, Serde<V> valueSerde) {

    /** Retention meaning "never delete". */
    public static final long INFINITE_RETENTION = -1L;

    public TopicSpec {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("topic name must not be blank");
        }
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions of " + name + " must be >= 1, got " + partitions);
        }
        if (replicationFactor != -1 && replicationFactor < 1) {
            throw new IllegalArgumentException("replication factor of " + name + " must be -1 or >= 1, got "
                    + replicationFactor);
        }
        if (retentionMs < -1) {
            throw new IllegalArgumentException("retention of " + name + " must be >= -1, got " + retentionMs);
        }
        Objects.requireNonNull(cleanupPolicy, "cleanupPolicy");
        if (timestampType != TimestampType.CREATE_TIME && timestampType != TimestampType.LOG_APPEND_TIME) {
            throw new IllegalArgumentException("timestamp type of " + name + " must be CreateTime or LogAppendTime");
        }
        Objects.requireNonNull(keySerde, "keySerde");
        Objects.requireNonNull(valueSerde, "valueSerde");
    }

    /** The same topic under another name (a tenant's own submissions topic, say). */
    public TopicSpec<K, V> named(String other) {
        return new TopicSpec<>(other, partitions, replicationFactor, cleanupPolicy, retentionMs, timestampType,
                keySerde, valueSerde);
    }

    /**
     * The topic-level configs to create the topic with ({@code cleanup.policy}, {@code message.timestamp.type}, and
     * {@code retention.ms} if deleting).
     */
    public Map<String, String> topicConfigs() {
        Map<String, String> configs = new LinkedHashMap<>();
        configs.put(TopicConfig.CLEANUP_POLICY_CONFIG, cleanupPolicy.configValue());
        configs.put(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, timestampType.name);
        if (cleanupPolicy == CleanupPolicy.DELETE) {
            configs.put(TopicConfig.RETENTION_MS_CONFIG, Long.toString(retentionMs));
        }
        return configs;
    }

    /** The admin-client request that creates this topic. */
    public NewTopic newTopic() {
        Optional<Short> rf = replicationFactor == -1 ? Optional.empty() : Optional.of(replicationFactor);
        return new NewTopic(name, Optional.of(partitions), rf).configs(topicConfigs());
    }

    /** The registry subject of this topic's values (TopicNameStrategy). */
    public String valueSubject() {
        return SubjectNames.value(name);
    }
}
