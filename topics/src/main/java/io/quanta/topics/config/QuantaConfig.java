package io.quanta.topics.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The validated Quanta configuration, built from (lowest to highest precedence) a properties file, environment
 * variables ({@code QUANTA_FOO_BAR} sets {@code foo.bar}) and explicit overrides such as command-line flags.
 *
 * <p>Keys defined by a {@link ConfigSection} are typed and validated; a key under a prefix owned by a section but not
 * defined (a typo) or an invalid value fails with a {@link ConfigException} naming the key, the allowed values and
 * where it was set. Every other key is a Kafka client setting and passes through unchanged
 * ({@link #kafkaClientProperties()}). {@link #toString()} masks passwords.
 */
public final class QuantaConfig extends AbstractConfig {

    /** Prefix of the environment variables read as settings. */
    public static final String ENV_PREFIX = "QUANTA_";

    private static final Pattern SENSITIVE = Pattern.compile(
            "(?i).*(password|secret|jaas|user\\.info|credential|token|api\\.key).*");
    private static final String MASK = "[hidden]";
    /** How Kafka's ConfigException names the key: "Invalid value X for configuration KEY: reason". */
    private static final Pattern CONFIG_NAME = Pattern.compile("for configuration ([^:\\s]+)");

    private final ConfigSections sections;
    private final Map<String, String> raw;
    private final Map<String, String> origins;
    private final Map<String, String> passThrough;

    private QuantaConfig(ConfigSections sections, Map<String, String> raw, Map<String, String> origins) {
        super(sections.combinedDefinition(), raw, false);
        this.sections = sections;
        this.raw = Map.copyOf(raw);
        this.origins = Map.copyOf(origins);
        Map<String, String> pass = new TreeMap<>();
        raw.forEach((k, v) -> {
            if (!sections.isQuantaKey(k)) {
                pass.put(k, v);
            }
        });
        this.passThrough = java.util.Collections.unmodifiableMap(pass);
    }

    /** A builder using every section found on the class path. */
    public static Builder builder() {
        return new Builder();
    }

    /** Configuration from explicit values only (no file, no environment), with every section on the class path. */
    public static QuantaConfig of(Map<String, String> values) {
        return builder().overrides(values).build();
    }

    /** This configuration with some keys replaced (validated again); e.g. addresses learnt at run time. */
    public QuantaConfig withOverrides(Map<String, String> overrides) {
        Map<String, String> merged = new LinkedHashMap<>(raw);
        Map<String, String> mergedOrigins = new LinkedHashMap<>(origins);
        overrides.forEach((k, v) -> {
            merged.put(k, v);
            mergedOrigins.put(k, "override");
        });
        return create(sections, merged, mergedOrigins);
    }

    /** The sections this configuration was validated against. */
    public ConfigSections sections() {
        return sections;
    }

    public String bootstrapServers() {
        return getString(ConnectionConfigSection.BOOTSTRAP_SERVERS);
    }

    /** The registry base URL, if set. */
    public Optional<String> registryUrl() {
        return Optional.ofNullable(getString(ConnectionConfigSection.REGISTRY_URL)).filter(s -> !s.isBlank());
    }

    /** The registry URL, or a {@link ConfigException} naming the key when it is not set. */
    public String requireRegistryUrl() {
        return registryUrl().orElseThrow(() -> new ConfigException(ConnectionConfigSection.REGISTRY_URL
                + " is not set: give the schema registry URL (file, QUANTA_SCHEMA_REGISTRY_URL or a flag)"));
    }

    /** Registry basic-auth {@code user:password}, if set. */
    public Optional<Password> registryUserInfo() {
        return Optional.ofNullable(getPassword(ConnectionConfigSection.REGISTRY_USER_INFO));
    }

    /**
     * Properties for any Kafka client: {@code bootstrap.servers} plus every pass-through setting (security.protocol,
     * ssl.*, sasl.*, ...) exactly as given. Contains secrets: never print it.
     */
    public Map<String, Object> kafkaClientProperties() {
        Map<String, Object> props = new TreeMap<>(passThrough);
        props.put(ConnectionConfigSection.BOOTSTRAP_SERVERS, bootstrapServers());
        return props;
    }

    /** The settings that are not Quanta keys, as given. */
    public Map<String, String> passThroughProperties() {
        return passThrough;
    }

    /** Where a key was set ({@code default} when nowhere). */
    public String origin(String key) {
        return origins.getOrDefault(key, "default");
    }

    /** One {@code key = value} line per setting, sorted, with every secret masked. */
    public String render() {
        StringBuilder out = new StringBuilder();
        Map<String, String> lines = new TreeMap<>();
        for (String key : sections.keyNames()) {
            Object value = values().get(key);
            boolean secret = sections.key(key).map(k -> k.type == Type.PASSWORD).orElse(false);
            lines.put(key, secret && value != null ? MASK : String.valueOf(value));
        }
        passThrough.forEach((k, v) -> lines.put(k, isSensitive(k) ? MASK : v));
        lines.forEach((k, v) -> out.append(k).append(" = ").append(v).append('\n'));
        return out.toString();
    }

    @Override
    public String toString() {
        return "QuantaConfig{\n" + render() + "}";
    }

    static boolean isSensitive(String key) {
        return SENSITIVE.matcher(key).matches() || ConfigSections.isKafkaPasswordKey(key);
    }

    private static QuantaConfig create(ConfigSections sections, Map<String, String> raw, Map<String, String> origins) {
        for (String key : raw.keySet()) {
            if (sections.isQuantaKey(key) && sections.key(key).isEmpty()) {
                List<String> hints = sections.similarKeys(key);
                throw new ConfigException("Unknown setting '" + key + "' (set in " + origins.get(key) + ")"
                        + (hints.isEmpty() ? "" : "; known settings nearby: " + String.join(", ", hints)));
            }
        }
        try {
            return new QuantaConfig(sections, raw, origins);
        } catch (ConfigException e) {
            java.util.regex.Matcher named = CONFIG_NAME.matcher(String.valueOf(e.getMessage()));
            String key = named.find() ? named.group(1) : null;
            String where = key == null || !origins.containsKey(key) ? "" : " (set in " + origins.get(key) + ")";
            throw new ConfigException(e.getMessage() + where);
        }
    }

    /** Collects the sources of a {@link QuantaConfig}; later calls of the same kind add to earlier ones. */
    public static final class Builder {
        private ConfigSections sections;
        private final List<Layer> files = new ArrayList<>();
        private final List<Layer> environment = new ArrayList<>();
        private final List<Layer> overrides = new ArrayList<>();

        private Builder() {
        }

        /** Validate against these sections instead of those found on the class path. */
        public Builder sections(ConfigSections value) {
            this.sections = value;
            return this;
        }

        /** Read a properties file (lowest precedence); a missing or unreadable file fails naming the path. */
        public Builder propertiesFile(Path file) {
            Properties props = new Properties();
            try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                props.load(reader);
            } catch (IOException e) {
                throw new ConfigException("Cannot read config file " + file + ": " + e);
            }
            Map<String, String> values = new LinkedHashMap<>();
            props.stringPropertyNames().forEach(k -> values.put(k.trim(), props.getProperty(k).trim()));
            files.add(new Layer(values, "file " + file));
            return this;
        }

        /** Read {@code QUANTA_*} variables from this environment (e.g. {@link System#getenv()}). */
        public Builder environment(Map<String, String> env) {
            Map<String, String> values = new LinkedHashMap<>();
            Map<String, String> names = new LinkedHashMap<>();
            new TreeMap<>(env).forEach((name, value) -> {
                if (name.startsWith(ENV_PREFIX) && name.length() > ENV_PREFIX.length()) {
                    String key = name.substring(ENV_PREFIX.length()).toLowerCase(Locale.ROOT).replace('_', '.');
                    values.put(key, value);
                    names.put(key, name);
                }
            });
            environment.add(new Layer(values, null, names));
            return this;
        }

        /** Explicit values (highest precedence), e.g. from command-line flags. */
        public Builder overrides(Map<String, String> values) {
            overrides.add(new Layer(Map.copyOf(values), "override"));
            return this;
        }

        /** Merge, validate and return the configuration. */
        public QuantaConfig build() {
            ConfigSections effective = sections != null ? sections : ConfigSections.discover();
            Map<String, String> merged = new LinkedHashMap<>();
            Map<String, String> origins = new LinkedHashMap<>();
            for (Layer layer : files) {
                layer.applyTo(merged, origins);
            }
            for (Layer layer : environment) {
                // Environment variables that are neither Quanta nor Kafka settings (QUANTA_HOME, ...) are not ours.
                layer.filtered(k -> effective.isQuantaKey(k) || effective.isKafkaClientKey(k)).applyTo(merged, origins);
            }
            for (Layer layer : overrides) {
                layer.applyTo(merged, origins);
            }
            return create(effective, merged, origins);
        }
    }

    private record Layer(Map<String, String> values, String origin, Map<String, String> envNames) {
        Layer(Map<String, String> values, String origin) {
            this(values, origin, Map.of());
        }

        Layer filtered(java.util.function.Predicate<String> keep) {
            Map<String, String> kept = new LinkedHashMap<>();
            values.forEach((k, v) -> {
                if (keep.test(k)) {
                    kept.put(k, v);
                }
            });
            return new Layer(kept, origin, envNames);
        }

        void applyTo(Map<String, String> merged, Map<String, String> origins) {
            values.forEach((k, v) -> {
                merged.put(k, v);
                origins.put(k, origin != null ? origin : "environment variable " + envNames.get(k));
            });
        }
    }
}
