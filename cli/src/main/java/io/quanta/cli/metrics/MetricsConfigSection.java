package io.quanta.cli.metrics;

import io.quanta.topics.config.ConfigSection;
import io.quanta.topics.config.SectionKeys;
import java.util.Set;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * The {@code prometheus.*} settings: where {@code quanta scheduler}, {@code quanta node} and {@code quanta local}
 * serve their Prometheus endpoint ({@code GET /metrics}). Not {@code metrics.*}: that prefix belongs to Kafka's own
 * client settings ({@code metrics.recording.level}, ...), which pass through.
 */
public final class MetricsConfigSection implements ConfigSection {

    /** Default port of the Prometheus endpoint. */
    public static final int DEFAULT_PORT = 9464;

    private static final SectionKeys KEYS = new SectionKeys();

    public static final String ENABLED = KEYS.define("prometheus.enabled", Type.BOOLEAN, true, Importance.MEDIUM,
            "Serve the Prometheus endpoint.");
    public static final String HOST = KEYS.define("prometheus.host", Type.STRING, "127.0.0.1",
            new ConfigDef.NonEmptyString(), Importance.MEDIUM,
            "Address the endpoint binds to (0.0.0.0 in containers).");
    public static final String PORT = KEYS.define("prometheus.port", Type.INT, DEFAULT_PORT, Range.between(0, 65_535),
            Importance.MEDIUM, "Port of the endpoint; 0 picks a free port (printed at start).");

    @Override
    public String name() {
        return "prometheus";
    }

    @Override
    public String description() {
        return "The Prometheus endpoint (GET /metrics) of the scheduler, the node connector and quanta local.";
    }

    @Override
    public Set<String> ownedPrefixes() {
        return Set.of("prometheus.");
    }

    @Override
    public ConfigDef definition() {
        return KEYS.definition();
    }
}
