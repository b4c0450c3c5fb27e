package io.quanta.cli.client;

import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.TopicSpec;
import io.quanta.topics.config.QuantaConfig;
import io.quanta.topics.serde.AvroSerdeFactory;
import io.quanta.topics.serde.AvroTrust;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * What a user command needs to talk to a Quanta cluster: the configuration and the topic catalogue with
 * registry-backed Avro serdes, and factories of short-lived clients. Producers are idempotent with {@code acks=all};
 * consumers read committed records only and join no consumer group (they assign partitions themselves).
 */
public final class ClusterAccess {

    private final QuantaConfig config;
    private final TopicCatalogue topics;

    private ClusterAccess(QuantaConfig config, TopicCatalogue topics) {
        this.config = config;
        this.topics = topics;
    }

    /** Access to the cluster and registry of {@code config} (fails naming the key when the registry URL is unset). */
    public static ClusterAccess of(QuantaConfig config) {
        AvroTrust.trustQuantaSchemas();
        return new ClusterAccess(config, TopicCatalogue.from(config, AvroSerdeFactory.from(config)));
    }

    /** Access with a given catalogue (tests). */
    public static ClusterAccess of(QuantaConfig config, TopicCatalogue topics) {
        AvroTrust.trustQuantaSchemas();
        return new ClusterAccess(config, topics);
    }

    public QuantaConfig config() {
        return config;
    }

    public TopicCatalogue topics() {
        return topics;
    }

    /** An idempotent producer ({@code acks=all}) for the values of {@code topic}. */
    public <V> KafkaProducer<String, V> producer(TopicSpec<String, V> topic, String clientId) {
        Map<String, Object> props = new HashMap<>(config.kafkaClientProperties());
        props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 15_000);
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        return new KafkaProducer<>(props, topic.keySerde().serializer(), topic.valueSerde().serializer());
    }

    /** A group-less consumer of committed records of {@code topic}; assign partitions to it. */
    public KafkaConsumer<String, byte[]> consumer(TopicSpec<String, ?> topic, String clientId) {
        Map<String, Object> props = new HashMap<>(config.kafkaClientProperties());
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId + "-" + UUID.randomUUID().toString().substring(0, 8));
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15_000);
        props.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        // a read to the end of a transactional topic ends with a fetch that only steps over the commit marker: the
        // broker would hold it for the default 500 ms waiting for data that a one-off read does not want
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 20);
        return new KafkaConsumer<>(props, topic.keySerde().deserializer(), new ByteArrayDeserializer());
    }
}
