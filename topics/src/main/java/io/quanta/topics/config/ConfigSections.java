package io.quanta.topics.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.ConfigKey;

/**
 * The immutable set of every known {@link ConfigSection}: the combined definition that {@link QuantaConfig} validates
 * against, the prefixes of the Quanta namespace, and the list of all keys (for the generated configuration reference).
 * Two sections may not define the same key.
 */
public final class ConfigSections {

    private static final Set<String> KAFKA_CLIENT_KEYS = kafkaClientKeys();

    private final List<ConfigSection> sections;
    private final ConfigDef combined;
    private final Set<String> ownedPrefixes;
    private final Set<String> passThroughKeys;

    private ConfigSections(List<ConfigSection> sections) {
        this.sections = List.copyOf(sections);
        Map<String, String> owner = new LinkedHashMap<>();
        ConfigDef def = new ConfigDef();
        Set<String> prefixes = new TreeSet<>();
        Set<String> passThrough = new HashSet<>();
        for (ConfigSection section : this.sections) {
            for (ConfigKey key : section.definition().configKeys().values()) {
                String previous = owner.putIfAbsent(key.name, section.name());
                if (previous != null) {
                    throw new IllegalArgumentException("Config key '" + key.name + "' is defined by both section '"
                            + previous + "' and section '" + section.name() + "'");
                }
                def.define(key);
            }
            prefixes.addAll(section.ownedPrefixes());
            passThrough.addAll(section.passThroughKeys());
        }
        this.combined = def;
        this.ownedPrefixes = Set.copyOf(prefixes);
        this.passThroughKeys = Set.copyOf(passThrough);
    }

    /** Every section on the class path, found with {@link ServiceLoader}, in a stable order (by name). */
    public static ConfigSections discover() {
        List<ConfigSection> found = new ArrayList<>();
        ServiceLoader.load(ConfigSection.class, ConfigSections.class.getClassLoader()).forEach(found::add);
        found.sort(java.util.Comparator.comparing(ConfigSection::name));
        return of(found);
    }

    /** Exactly the given sections. */
    public static ConfigSections of(Collection<? extends ConfigSection> sections) {
        return new ConfigSections(new ArrayList<>(sections));
    }

    /** These sections plus one more (ignored if a section with the same name is already present). */
    public ConfigSections with(ConfigSection extra) {
        if (sections.stream().anyMatch(s -> s.name().equals(extra.name()))) {
            return this;
        }
        List<ConfigSection> all = new ArrayList<>(sections);
        all.add(extra);
        return new ConfigSections(all);
    }

    /** The sections, in registration order. */
    public List<ConfigSection> sections() {
        return sections;
    }

    /** A copy of the definition combining every section. */
    public ConfigDef combinedDefinition() {
        return new ConfigDef(combined);
    }

    /** The definition of one key, if some section defines it. */
    public Optional<ConfigKey> key(String name) {
        return Optional.ofNullable(combined.configKeys().get(name));
    }

    /** Every defined key name, sorted. */
    public Set<String> keyNames() {
        return new TreeSet<>(combined.names());
    }

    /** True when the key is defined by a section or lies under a prefix a section owns. */
    public boolean isQuantaKey(String name) {
        return combined.names().contains(name) || ownedPrefixes.stream().anyMatch(name::startsWith);
    }

    /** True when the key is a setting some Kafka client (or a section's module) understands. */
    public boolean isKafkaClientKey(String name) {
        return KAFKA_CLIENT_KEYS.contains(name) || passThroughKeys.contains(name)
                || name.startsWith("ssl.") || name.startsWith("sasl.");
    }

    /** Defined keys that share the longest possible dotted prefix with {@code name}: hints for a misspelt key. */
    public List<String> similarKeys(String name) {
        String prefix = name;
        while (!prefix.isEmpty()) {
            int dot = prefix.lastIndexOf('.');
            prefix = dot < 0 ? "" : prefix.substring(0, dot);
            String p = prefix.isEmpty() ? "" : prefix + ".";
            List<String> matches = keyNames().stream().filter(k -> !p.isEmpty() && k.startsWith(p)).toList();
            if (!matches.isEmpty()) {
                return matches;
            }
        }
        return List.of();
    }

    private static Set<String> kafkaClientKeys() {
        Set<String> keys = new HashSet<>();
        keys.addAll(ProducerConfig.configNames());
        keys.addAll(ConsumerConfig.configNames());
        keys.addAll(AdminClientConfig.configNames());
        return Set.copyOf(keys);
    }

    /** Whether a Kafka client declares this key as a password (so it must be masked when printed). */
    static boolean isKafkaPasswordKey(String name) {
        for (ConfigDef def : List.of(ProducerConfig.configDef(), ConsumerConfig.configDef(),
                AdminClientConfig.configDef())) {
            ConfigKey key = def.configKeys().get(name);
            if (key != null && key.type == ConfigDef.Type.PASSWORD) {
                return true;
            }
        }
        return false;
    }
}
