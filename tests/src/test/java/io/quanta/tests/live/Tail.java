package io.quanta.tests.live;

import io.quanta.topics.TopicSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads every partition of a topic from the beginning (read_committed) into a list, a poll at a time. */
public final class Tail<V> implements AutoCloseable {

    private final KafkaConsumer<String, V> consumer;
    private final List<ConsumerRecord<String, V>> records = new ArrayList<>();
    private final String topic;

    public Tail(String bootstrapServers, TopicSpec<String, V> topic) {
        consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
                new StringDeserializer(), topic.valueSerde().deserializer());
        this.topic = topic.name();
    }

    /** Polls once more and returns every value read so far. */
    public List<V> values() {
        if (consumer.assignment().isEmpty()) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            if (partitions.isEmpty()) {
                return List.of();
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
        }
        consumer.poll(Duration.ofMillis(100)).forEach(records::add);
        return records.stream().map(ConsumerRecord::value).toList();
    }

    /** Every record read so far (no poll). */
    public List<ConsumerRecord<String, V>> records() {
        return records;
    }

    @Override
    public void close() {
        consumer.close();
    }
}
