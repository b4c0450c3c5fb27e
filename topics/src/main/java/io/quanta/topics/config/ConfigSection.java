package io.quanta.topics.config;

import java.util.Set;
import org.apache.kafka.common.config.ConfigDef;

/**
 * One module's share of the Quanta configuration: a named, documented {@link ConfigDef} and the key prefixes it owns.
 * Sections are found with {@link java.util.ServiceLoader} (register the class in
 * {@code META-INF/services/io.quanta.topics.config.ConfigSection}) or added explicitly to {@link ConfigSections}.
 */
public interface ConfigSection {

    /** Short name of the section, used as a heading in the generated reference (e.g. {@code "scheduler"}). */
    String name();

    /** One sentence saying what the section configures. */
    String description();

    /** The keys of this section with their types, defaults, validators and documentation. */
    ConfigDef definition();

    /**
     * Key prefixes owned by this section (e.g. {@code "scheduler."}). A key under an owned prefix that no section
     * defines is a typo and fails at start-up instead of passing through to Kafka.
     */
    default Set<String> ownedPrefixes() {
        return Set.of();
    }

    /**
     * Keys that are not Quanta settings but that this section's module hands to a Kafka client unchanged (e.g. the
     * Kafka Streams settings); used to recognise them in environment variables.
     */
    default Set<String> passThroughKeys() {
        return Set.of();
    }
}
