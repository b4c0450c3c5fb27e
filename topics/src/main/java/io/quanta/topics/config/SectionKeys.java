package io.quanta.topics.config;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Validator;

/**
 * The keys of one {@link ConfigSection}, declared one at a time so that a key's name constant and its type, default,
 * validator and documentation are one statement: {@code public static final String CELL = KEYS.define("node.cell",
 * ...)}. A name constant can then never lack its definition, and a section's {@link ConfigSection#definition()} is
 * {@link #definition()}. Declare the {@code KEYS} field before the key constants (static fields initialise in
 * order).
 */
public final class SectionKeys {

    private final ConfigDef declared = new ConfigDef();

    /** Declares a key with a validator; returns its name. */
    public String define(String name, Type type, Object defaultValue, Validator validator, Importance importance,
            String documentation) {
        declared.define(name, type, defaultValue, validator, importance, documentation);
        return name;
    }

    /** Declares a key without a validator; returns its name. */
    public String define(String name, Type type, Object defaultValue, Importance importance, String documentation) {
        declared.define(name, type, defaultValue, importance, documentation);
        return name;
    }

    /** A copy of every key declared so far (callers may add more to it). */
    public ConfigDef definition() {
        return new ConfigDef(declared);
    }
}
