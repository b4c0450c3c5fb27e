package io.quanta.streams.app;

import io.quanta.streams.SchedulerSettings;
import io.quanta.streams.deadletter.JobSecretTopics;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.config.QuantaConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The Kafka Streams properties of the scheduler: exactly-once v2, the commit interval and poll time of the settings
 * (they set the latency floor), standby replicas, threads, state directory, {@code application.server} for the status
 * API, a consumer session timeout of {@link #SESSION_TIMEOUT} (how long a crashed instance's tasks wait for a new
 * owner), plus every pass-through Kafka client setting of the configuration (security, ...), which wins over these
 * defaults when set explicitly.
 */
public final class SchedulerStreamsConfig {

    /** Default consumer session timeout of the scheduler's stream threads (Kafka's own default is 45 s). */
    public static final Duration SESSION_TIMEOUT = Duration.ofSeconds(15);

    /** Time a surviving instance needs beyond the session timeout to rebalance and restore a crashed one's tasks. */
    public static final Duration FAILOVER_ALLOWANCE = Duration.ofSeconds(10);

    private SchedulerStreamsConfig() {
    }

    /**
     * @param applicationServer {@code host:port} of this instance's status API, empty when it has none
     */
    public static Properties of(QuantaConfig config, SchedulerSettings settings, Optional<String> applicationServer) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, settings.applicationId());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, Long.toString(settings.commitInterval().toMillis()));
        props.put(StreamsConfig.POLL_MS_CONFIG, Long.toString(settings.poll().toMillis()));
        props.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, Integer.toString(settings.standbyReplicas()));
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, Integer.toString(settings.streamThreads()));
        props.put(StreamsConfig.STATE_DIR_CONFIG, settings.stateDir()
                .orElse(Path.of(System.getProperty("java.io.tmpdir"), "quanta-streams")).toString());
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0");
        applicationServer.ifPresent(server -> props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, server));
        // a crashed instance's tasks (and the heartbeats they route) stall until the group notices: keep that well
        // below scheduler.node.timeout.ms, or the cells would declare healthy nodes lost after a scheduler crash
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, Long.toString(SESSION_TIMEOUT.toMillis()));
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, Long.toString(SESSION_TIMEOUT.toMillis() / 3));
        props.putAll(config.kafkaClientProperties());
        return props;
    }

    /**
     * The exception handling of the scheduler's Kafka Streams: {@link DeadLetterHandler} for processing, production
     * and deserialization errors (one bad record becomes a dead letter, the stream moves on), with the dead-letter
     * topic of {@code topics}. Production and every test driver use this, so tests see what production does. The
     * handler is also on for global state, as it will be by default from Kafka 5.0 (the topology has no global store;
     * left unset, Kafka Streams warns at every start). The main consumer gets the setting too: its partition assignor
     * reads the Streams settings again from the consumer's own configuration.
     */
    public static Map<String, Object> errorHandling(TopicCatalogue topics) {
        String globalEnabled = StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG;
        return Map.of(
                StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterHandler.class,
                globalEnabled, true,
                StreamsConfig.mainConsumerPrefix(globalEnabled), true,
                StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterHandler.class,
                StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterHandler.class,
                DeadLetterHandler.TOPIC_CONFIG, topics.deadLetter(),
                DeadLetterHandler.SECRET_TOPICS_CONFIG, JobSecretTopics.of(topics));
    }

    /**
     * A warning when the node timeout is shorter than the consumer session timeout in {@code props} (prefixed or
     * not) plus {@link #FAILOVER_ALLOWANCE}: after a scheduler instance crashes, the heartbeats its tasks routed
     * stall for about that long, and a cell on another instance would declare those nodes lost and restart their
     * jobs.
     */
    public static Optional<String> failoverWarning(Properties props, Duration nodeTimeout) {
        String value = props.getProperty(StreamsConfig.mainConsumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG),
                props.getProperty(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG),
                        props.getProperty(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "45000")));
        long session = Long.parseLong(value.trim());
        if (nodeTimeout.toMillis() >= session + FAILOVER_ALLOWANCE.toMillis()) {
            return Optional.empty();
        }
        return Optional.of("scheduler.node.timeout.ms (" + nodeTimeout.toMillis() + ") is below the consumer "
                + "session timeout (" + session + " ms) plus " + FAILOVER_ALLOWANCE.toSeconds() + " s: if a scheduler "
                + "instance crashes, the heartbeats it routed wait about that long for another instance, and healthy "
                + "nodes may be declared lost and their jobs restarted; raise scheduler.node.timeout.ms or lower "
                + "session.timeout.ms");
    }
}
