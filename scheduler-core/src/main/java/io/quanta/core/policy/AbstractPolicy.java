package io.quanta.core.policy;

import io.quanta.core.config.PolicyConfig;
import java.util.Objects;

/** Common holder of a policy's name and configuration; subclasses implement the decision logic. */
public abstract class AbstractPolicy implements SchedulingPolicy {

    private final String name;
    private final PolicyConfig config;

    protected AbstractPolicy(String name, PolicyConfig config) {
        this.name = Objects.requireNonNull(name, "name");
        this.config = Objects.requireNonNull(config, "config");
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final PolicyConfig config() {
        return config;
    }

    @Override
    public String toString() {
        return name;
    }
}
