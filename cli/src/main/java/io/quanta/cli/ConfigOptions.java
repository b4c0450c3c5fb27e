package io.quanta.cli;

import io.quanta.topics.config.ConnectionConfigSection;
import io.quanta.topics.config.QuantaConfig;
import io.quanta.cli.local.DataDir;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * Options every command shares to build its {@link QuantaConfig}: a properties file, {@code QUANTA_*} environment
 * variables, then {@code --set key=value} and the named flags (highest precedence). Mix it into a command with
 * {@code @Mixin ConfigOptions config;}.
 */
public final class ConfigOptions {

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
            description = "Properties file with settings (default: a running quanta local's client.properties).")
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

    /**
     * The validated configuration; fails with a ConfigException naming a bad key. When nothing says where the cluster
     * is (no file, no {@code QUANTA_BOOTSTRAP_SERVERS}, no flag) and a {@code quanta local} is running with the
     * default data directory, its {@code client.properties} is used, so that commands in another terminal just work.
     */
    public QuantaConfig load() {
        return load(true);
    }

    /** The configuration with a command's own flags on top ({@link SettingFlags#settings}, highest precedence). */
    public QuantaConfig loadWith(Map<String, String> flags) {
        return load().withOverrides(flags);
    }

    /** The configuration without looking for a running {@code quanta local} (what {@code quanta local} uses). */
    public QuantaConfig loadWithoutLocalCluster() {
        return load(false);
    }

    private QuantaConfig load(boolean findLocal) {
        QuantaConfig.Builder builder = QuantaConfig.builder();
        Path source = file;
        if (source == null && findLocal && bootstrapServers == null
                && !settings.containsKey(ConnectionConfigSection.BOOTSTRAP_SERVERS)
                && System.getenv(QuantaConfig.ENV_PREFIX + "BOOTSTRAP_SERVERS") == null) {
            source = runningLocalCluster().orElse(null);
        }
        if (source != null) {
            builder.propertiesFile(source);
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

    /** The client settings of a {@code quanta local} running with the default data directory, if one runs. */
    static Optional<Path> runningLocalCluster() {
        Path dir = DataDir.defaultPath();
        Path client = dir.resolve("client.properties");
        if (!Files.isRegularFile(client)) {
            return Optional.empty();
        }
        return DataDir.ownerPid(dir).filter(pid -> pid != ProcessHandle.current().pid())
                .flatMap(ProcessHandle::of).filter(ProcessHandle::isAlive).map(p -> client);
    }
}
