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

    public static final String BOOTSTRAP_SERVERS = "bootstrap.servers";
    public static final String REGISTRY_URL = "schema.registry.url";
    public static final String REGISTRY_USER_INFO = "schema.registry.basic.auth.user.info";
    public static final String REGISTRY_TRUSTSTORE_LOCATION = "schema.registry.ssl.truststore.location";
    public static final String REGISTRY_TRUSTSTORE_PASSWORD = "schema.registry.ssl.truststore.password";
    public static final String REGISTRY_TRUSTSTORE_TYPE = "schema.registry.ssl.truststore.type";
    public static final String REGISTRY_AUTO_REGISTER = "schema.registry.auto.register";
    public static final String REGISTRY_TIMEOUT_MS = "schema.registry.request.timeout.ms";
    public static final String REGISTRY_RETRIES = "schema.registry.retries";
    public static final String REGISTRY_BACKOFF_MS = "schema.registry.retry.backoff.ms";
    public static final String REGISTRY_BACKOFF_MAX_MS = "schema.registry.retry.backoff.max.ms";

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
        return new ConfigDef()
                .define(BOOTSTRAP_SERVERS, Type.STRING, "localhost:9092", new ConfigDef.NonEmptyString(),
                        Importance.HIGH, "Kafka brokers to connect to, host:port[,host:port...].")
                .define(REGISTRY_URL, Type.STRING, null, Importance.HIGH,
                        "Base URL of the Confluent-compatible schema registry REST API, e.g. "
                                + "http://localhost:8081 or http://host:8080/apis/ccompat/v7 (Apicurio).")
                .define(REGISTRY_USER_INFO, Type.PASSWORD, null, Importance.MEDIUM,
                        "Registry basic-auth credentials as user:password; never printed.")
                .define(REGISTRY_TRUSTSTORE_LOCATION, Type.STRING, null, Importance.MEDIUM,
                        "Trust store for an https registry URL signed by a private CA; unset uses the JVM's default.")
                .define(REGISTRY_TRUSTSTORE_PASSWORD, Type.PASSWORD, null, Importance.MEDIUM,
                        "Password of the registry trust store; never printed.")
                .define(REGISTRY_TRUSTSTORE_TYPE, Type.STRING, "PKCS12", new ConfigDef.NonEmptyString(),
                        Importance.LOW, "Type of the registry trust store (PKCS12 or JKS).")
                .define(REGISTRY_AUTO_REGISTER, Type.BOOLEAN, true, Importance.MEDIUM,
                        "Register a value schema on first use; when false the schema must already be registered.")
                .define(REGISTRY_TIMEOUT_MS, Type.LONG, 10_000L, Range.atLeast(1), Importance.LOW,
                        "Timeout of one registry HTTP request.")
                .define(REGISTRY_RETRIES, Type.INT, 5, Range.between(0, 100), Importance.LOW,
                        "Retries of a registry request after a transient error (HTTP 5xx, 429, I/O error).")
                .define(REGISTRY_BACKOFF_MS, Type.LONG, 200L, Range.atLeast(0), Importance.LOW,
                        "Backoff before the first retry; doubled on every further retry.")
                .define(REGISTRY_BACKOFF_MAX_MS, Type.LONG, 5_000L, Range.atLeast(0), Importance.LOW,
                        "Upper bound of the retry backoff.");
    }
}
