package io.quanta.core.config;

import java.util.Objects;
import java.util.function.Function;

/**
 * A documented, typed key of the policy configuration: its name, default (as text), one-line documentation, the
 * allowed values (for error messages) and a parser that throws {@link IllegalArgumentException} on a bad value.
 *
 * @param <T> the parsed type
 */
public record ConfigKey<T>(String name, String defaultValue, String allowed, String doc, Function<String, T> parser) {

    public ConfigKey {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(defaultValue, "defaultValue");
        Objects.requireNonNull(allowed, "allowed");
        Objects.requireNonNull(doc, "doc");
        Objects.requireNonNull(parser, "parser");
    }

    /** Parses {@code text}, wrapping any failure in a message that names the key and the allowed values. */
    public T parse(String text) {
        try {
            return parser.apply(text.trim());
        } catch (RuntimeException e) {
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw new IllegalArgumentException(
                    name + ": invalid value '" + text + "' (" + why + "); allowed: " + allowed, e);
        }
    }
}
