package io.quanta.cli.client;

import io.quanta.topics.serde.MalformedRecordException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.utils.Utils;

/**
 * Reads a topic up to its current end (the last stable offset: committed records only) with a group-less consumer:
 * the whole topic, the partition holding one key, or everything since an instant. The consumer reads raw bytes and
 * the reader decodes them, so an unreadable record is skipped and counted ({@link #skipped()}) without the consumer
 * logging an error per record (a topic with thousands of bad records would bury the answer under them). Closes
 * nothing: the caller owns the consumer.
 *
 * @param <V> value type
 */
public final class TopicReader<V> {

    private final Consumer<String, byte[]> consumer;
    private final String topic;
    private final Deserializer<V> values;
    private final Duration timeout;
    private long skipped;

    /**
     * @param consumer a consumer of raw values without group, reading committed records
     * @param topic the topic to read
     * @param values the decoder of its values (null bytes: tombstones, given as null)
     * @param timeout how long a read may take before it fails
     */
    public TopicReader(Consumer<String, byte[]> consumer, String topic, Deserializer<V> values,
                       Duration timeout) {
        this.consumer = consumer;
        this.topic = topic;
        this.values = values;
        this.timeout = timeout;
    }

    /** The partitions of the topic; fails with a message saying how to create it when it does not exist. */
    public List<TopicPartition> partitions() {
        List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
        if (infos == null || infos.isEmpty()) {
            throw new MissingTopicException(topic);
        }
        List<TopicPartition> out = new ArrayList<>();
        infos.forEach(p -> out.add(new TopicPartition(topic, p.partition())));
        out.sort((a, b) -> Integer.compare(a.partition(), b.partition()));
        return out;
    }

    /** The partition the default partitioner gives {@code key}. */
    public TopicPartition partitionOf(String key) {
        int count = partitions().size();
        int p = Utils.toPositive(Utils.murmur2(key.getBytes(java.nio.charset.StandardCharsets.UTF_8))) % count;
        return new TopicPartition(topic, p);
    }

    /**
     * The latest value of every key (a tombstone removes the key), reading the whole topic, or only the partition of
     * {@code onlyKey} and only that key when given. Insertion order = order of last update within a partition.
     */
    public Map<String, V> latestByKey(Optional<String> onlyKey) {
        List<TopicPartition> parts = onlyKey.map(k -> List.of(partitionOf(k))).orElseGet(this::partitions);
        consumer.assign(parts);
        consumer.seekToBeginning(parts);
        Map<String, V> latest = new LinkedHashMap<>();
        readToEnd(parts, (key, value) -> {
            if (onlyKey.isPresent() && !onlyKey.get().equals(key)) {
                return;
            }
            latest.remove(key);
            if (value != null) {
                latest.put(key, value);
            }
        });
        return latest;
    }

    /** Every record written at or after {@code since}, in partition order, until the current end. */
    public void readSince(Instant since, BiConsumer<String, V> sink) {
        List<TopicPartition> parts = partitions();
        consumer.assign(parts);
        Map<TopicPartition, Long> query = new HashMap<>();
        parts.forEach(p -> query.put(p, since.toEpochMilli()));
        Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(query, timeout);
        Map<TopicPartition, Long> ends = consumer.endOffsets(parts, timeout);
        for (TopicPartition p : parts) {
            OffsetAndTimestamp at = found.get(p);
            consumer.seek(p, at == null ? ends.get(p) : at.offset());
        }
        readToEnd(parts, sink);
    }

    /** Records from the current positions of {@code parts} up to their end offsets. */
    public void readToEnd(List<TopicPartition> parts, BiConsumer<String, V> sink) {
        Map<TopicPartition, Long> ends = consumer.endOffsets(parts, timeout);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!reachedEnd(ends)) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("could not read " + topic + " to its end within " + timeout
                        + " (is the cluster reachable?)");
            }
            poll(Duration.ofMillis(200), (record) -> sink.accept(record.key(), record.value()));
        }
    }

    /** One poll, skipping unreadable records; gives each record read to {@code sink}. */
    public void poll(Duration wait, java.util.function.Consumer<ConsumerRecord<String, V>> sink) {
        for (ConsumerRecord<String, byte[]> record : consumer.poll(wait)) {
            V value;
            try {
                value = record.value() == null ? null : values.deserialize(record.topic(), record.value());
            } catch (MalformedRecordException e) {
                skipped++;
                continue;
            }
            sink.accept(new ConsumerRecord<>(record.topic(), record.partition(), record.offset(), record.timestamp(),
                    record.timestampType(), record.serializedKeySize(), record.serializedValueSize(), record.key(),
                    value, record.headers(), record.leaderEpoch()));
        }
    }

    /** Records skipped because they could not be read. */
    public long skipped() {
        return skipped;
    }

    private boolean reachedEnd(Map<TopicPartition, Long> ends) {
        for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
            if (consumer.position(end.getKey(), timeout) < end.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** The topic does not exist on the cluster. */
    public static final class MissingTopicException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        MissingTopicException(String topic) {
            super("topic " + topic + " does not exist on this cluster: create the topics with 'quanta topics apply'"
                    + " (or check --bootstrap-servers)");
        }
    }
}
