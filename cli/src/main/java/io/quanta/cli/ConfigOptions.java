package io.quanta.cli;

import io.quanta.topics.config.ConnectionConfigSection;
import io.quanta.topics.config.QuantaConfig;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Options every command shares to build its {@link QuantaConfig}: a properties file, {@code QUANTA_*} environment
 * variables, then {@code --set key=value} and the named flags (highest precedence). Mix it into a command with
 * {@code @Mixin ConfigOptions config;}.
 */
public final class ConfigOptions {

    @Option(names = {"-c", "--config"}, paramLabel = "FILE", description = "Properties file with settings.")
    Path file;

    @Option(names = {"-s", "--set"}, paramLabel = "KEY=VALUE",
            description = "Any setting (Quanta key or Kafka client property); repeatable.")
    Map<String, String> settings = new LinkedHashMap<>();

    @Option(names = {"--bootstrap", "--bootstrap-servers"}, paramLabel = "HOST:PORT",
            description = "Kafka brokers (default: bootstrap.servers from the file or QUANTA_BOOTSTRAP_SERVERS).")
    String bootstrapServers;

    @Option(names = {"--registry", "--registry-url"}, paramLabel = "URL",
            description = "Confluent-compatible schema registry URL (or schema.registry.url / QUANTA_SCHEMA_REGISTRY_URL).")
    String registryUrl;

    /** The validated configuration; fails with a ConfigException naming a bad key. */
    public QuantaConfig load() {
        QuantaConfig.Builder builder = QuantaConfig.builder();
        if (file != null) {
            builder.propertiesFile(file);
        }
        builder.environment(System.getenv());
        Map<String, String> flags = new LinkedHashMap<>(settings);
        if (bootstrapServers != null) {
            flags.put(ConnectionConfigSection.BOOTSTRAP_SERVERS, bootstrapServers);
        }
        if (registryUrl != null) {
            flags.put(ConnectionConfigSection.REGISTRY_URL, registryUrl);
        }
        return builder.overrides(flags).build();
    }
}
