package io.quanta.node;

import io.quanta.topics.config.QuantaConfig;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The node connector's Kafka clients and why they are set so: one idempotent producer that keeps retrying a record
 * until the broker has it (records wait out a broker outage, delivered once and in order), one consumer of committed
 * commands without a group (the connector assigns its own partition and starts at the end).
 */
final class NodeClients {

    private NodeClients() {
    }

    /** The producer of heartbeats, events and telemetry. */
    static Map<String, Object> producer(QuantaConfig config, String nodeId) {
        Map<String, Object> props = new HashMap<>(config.kafkaClientProperties());
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "quanta-node-" + nodeId);
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.MAX_VALUE);
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        props.put(ProducerConfig.RECONNECT_BACKOFF_MS_CONFIG, 200);
        props.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 10_000);
        return props;
    }

    /** The consumer of this node's commands. */
    static Map<String, Object> commandConsumer(QuantaConfig config, String nodeId) {
        Map<String, Object> props = new HashMap<>(config.kafkaClientProperties());
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "quanta-node-" + nodeId + "-commands");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.RECONNECT_BACKOFF_MS_CONFIG, 200);
        props.put(ConsumerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 10_000);
        return props;
    }
}
