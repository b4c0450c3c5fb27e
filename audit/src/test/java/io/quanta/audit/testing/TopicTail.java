package io.quanta.audit.testing;

import io.quanta.topics.TopicSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads every partition of a topic from the beginning ({@code read_committed}), one short poll per call. */
public final class TopicTail<V> implements AutoCloseable {

    private final KafkaConsumer<String, V> consumer;
    private final String topic;
    private final List<V> values = new ArrayList<>();

    public TopicTail(String bootstrapServers, TopicSpec<String, V> spec) {
        this.topic = spec.name();
        this.consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new StringDeserializer(),
                spec.valueSerde().deserializer());
    }

    /** Polls once more and returns every value read so far. */
    public List<V> values() {
        if (consumer.assignment().isEmpty()) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
        }
        consumer.poll(Duration.ofMillis(100)).forEach(r -> values.add(r.value()));
        return values;
    }

    @Override
    public void close() {
        consumer.close();
    }
}
