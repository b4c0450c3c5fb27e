package io.quanta.topics.config;

import java.util.Set;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * Where the Kafka cluster and the schema registry are, and how the registry client behaves. Every other Kafka client
 * setting (security.protocol, ssl.*, sasl.*, ...) is not defined here: it passes through to the clients unchanged.
 */
public final class ConnectionConfigSection implements ConfigSection {

    private static final SectionKeys KEYS = new SectionKeys();

    public static final String BOOTSTRAP_SERVERS = KEYS.define("bootstrap.servers", Type.STRING, "localhost:9092",
            new ConfigDef.NonEmptyString(), Importance.HIGH, "Kafka brokers to connect to, host:port[,host:port...].");
    public static final String REGISTRY_URL = KEYS.define("schema.registry.url", Type.STRING, null, Importance.HIGH,
            "Base URL of the Confluent-compatible schema registry REST API, e.g. http://localhost:8081 or "
                    + "http://host:8080/apis/ccompat/v7 (Apicurio).");
    public static final String REGISTRY_USER_INFO = KEYS.define("schema.registry.basic.auth.user.info", Type.PASSWORD,
            null, Importance.MEDIUM, "Registry basic-auth credentials as user:password; never printed.");
    public static final String REGISTRY_TRUSTSTORE_LOCATION = KEYS.define("schema.registry.ssl.truststore.location",
            Type.STRING, null, Importance.MEDIUM,
            "Trust store for an https registry URL signed by a private CA; unset uses the JVM's default.");
    public static final String REGISTRY_TRUSTSTORE_PASSWORD = KEYS.define("schema.registry.ssl.truststore.password",
            Type.PASSWORD, null, Importance.MEDIUM, "Password of the registry trust store; never printed.");
    public static final String REGISTRY_TRUSTSTORE_TYPE = KEYS.define("schema.registry.ssl.truststore.type",
            Type.STRING, "PKCS12", new ConfigDef.NonEmptyString(), Importance.LOW,
            "Type of the registry trust store (PKCS12 or JKS).");
    public static final String REGISTRY_AUTO_REGISTER = KEYS.define("schema.registry.auto.register", Type.BOOLEAN,
            true, Importance.MEDIUM,
            "Register a value schema on first use; when false the schema must already be registered.");
    public static final String REGISTRY_TIMEOUT_MS = KEYS.define("schema.registry.request.timeout.ms", Type.LONG,
            10_000L, Range.atLeast(1), Importance.LOW, "Timeout of one registry HTTP request.");
    public static final String REGISTRY_RETRIES = KEYS.define("schema.registry.retries", Type.INT, 5,
            Range.between(0, 100), Importance.LOW,
            "Retries of a registry request after a transient error (HTTP 5xx, 429, I/O error).");
    public static final String REGISTRY_BACKOFF_MS = KEYS.define("schema.registry.retry.backoff.ms", Type.LONG, 200L,
            Range.atLeast(0), Importance.LOW, "Backoff before the first retry; doubled on every further retry.");
    public static final String REGISTRY_BACKOFF_MAX_MS = KEYS.define("schema.registry.retry.backoff.max.ms",
            Type.LONG, 5_000L, Range.atLeast(0), Importance.LOW, "Upper bound of the retry backoff.");

    @Override
    public String name() {
        return "connection";
    }

    @Override
    public String description() {
        return "The Kafka cluster and the Confluent-compatible schema registry.";
    }

    @Override
    public Set<String> ownedPrefixes() {
        return Set.of("quanta.", "schema.registry.");
    }

    @Override
    public ConfigDef definition() {
        return KEYS.definition();
    }
}
