package io.quanta.streams.app;

import io.quanta.streams.SchedulerSettings;
import io.quanta.topics.config.QuantaConfig;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The Kafka Streams properties of the scheduler: exactly-once v2, the commit interval and poll time of the settings
 * (they set the latency floor), standby replicas, threads, state directory, {@code application.server} for the status
 * API, plus every pass-through Kafka client setting of the configuration (security, ...), which wins over these
 * defaults when set explicitly.
 */
public final class SchedulerStreamsConfig {

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
        props.putAll(config.kafkaClientProperties());
        return props;
    }
}
