package io.quanta.core.config;

import java.util.List;

/** Thrown when a policy configuration has unknown keys or bad values; lists every problem, one per key. */
public final class InvalidPolicyConfigException extends IllegalArgumentException {

    private final List<String> problems;

    public InvalidPolicyConfigException(List<String> problems) {
        super("invalid policy configuration: " + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    /** One message per problem, each naming the key and the allowed values. */
    public List<String> problems() {
        return problems;
    }
}
