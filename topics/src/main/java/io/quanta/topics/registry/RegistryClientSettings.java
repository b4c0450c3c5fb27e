package io.quanta.topics.registry;

import io.quanta.topics.config.ConnectionConfigSection;
import io.quanta.topics.config.QuantaConfig;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.config.types.Password;

/**
 * How {@link HttpSchemaRegistryClient} reaches the registry: base URL, optional basic-auth {@code user:password},
 * optional trust store for https, request timeout and retry policy (exponential backoff from {@code initialBackoff}
 * up to {@code maxBackoff}).
 */
public record RegistryClientSettings(URI baseUrl, Optional<Password> userInfo, Optional<TrustStore> trustStore,
        Duration requestTimeout, int retries, Duration initialBackoff, Duration maxBackoff) {

    public RegistryClientSettings {
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(userInfo, "userInfo");
        Objects.requireNonNull(trustStore, "trustStore");
        if (retries < 0) {
            throw new IllegalArgumentException("retries must be >= 0, got " + retries);
        }
    }

    /** Defaults for a registry at this URL, without credentials. */
    public static RegistryClientSettings of(String baseUrl) {
        return new RegistryClientSettings(URI.create(baseUrl), Optional.empty(), Optional.empty(),
                Duration.ofSeconds(10), 5, Duration.ofMillis(200), Duration.ofSeconds(5));
    }

    /** The registry settings of a Quanta configuration (fails naming the key when the URL is missing). */
    public static RegistryClientSettings from(QuantaConfig config) {
        Optional<TrustStore> trustStore = Optional.ofNullable(
                config.getString(ConnectionConfigSection.REGISTRY_TRUSTSTORE_LOCATION)).map(location -> new TrustStore(
                        Path.of(location),
                        Optional.ofNullable(config.getPassword(ConnectionConfigSection.REGISTRY_TRUSTSTORE_PASSWORD)),
                        config.getString(ConnectionConfigSection.REGISTRY_TRUSTSTORE_TYPE)));
        return new RegistryClientSettings(URI.create(config.requireRegistryUrl()), config.registryUserInfo(), trustStore,
                Duration.ofMillis(config.getLong(ConnectionConfigSection.REGISTRY_TIMEOUT_MS)),
                config.getInt(ConnectionConfigSection.REGISTRY_RETRIES),
                Duration.ofMillis(config.getLong(ConnectionConfigSection.REGISTRY_BACKOFF_MS)),
                Duration.ofMillis(config.getLong(ConnectionConfigSection.REGISTRY_BACKOFF_MAX_MS)));
    }

    /** The same settings with another retry policy. */
    public RegistryClientSettings withRetries(int count, Duration initial, Duration max) {
        return new RegistryClientSettings(baseUrl, userInfo, trustStore, requestTimeout, count, initial, max);
    }

    /** The same settings with basic-auth credentials. */
    public RegistryClientSettings withUserInfo(String userAndPassword) {
        return new RegistryClientSettings(baseUrl, Optional.of(new Password(userAndPassword)), trustStore,
                requestTimeout, retries, initialBackoff, maxBackoff);
    }

    /** The same settings trusting the certificates of this store for https. */
    public RegistryClientSettings withTrustStore(TrustStore store) {
        return new RegistryClientSettings(baseUrl, userInfo, Optional.of(store), requestTimeout, retries,
                initialBackoff, maxBackoff);
    }
}
