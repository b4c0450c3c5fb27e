package io.quanta.core.policy;

import io.quanta.core.config.InvalidPolicyConfigException;
import io.quanta.core.config.PolicyConfig;
import io.quanta.core.config.PolicyConfigKeys;
import io.quanta.core.policy.fifo.FifoPolicy;
import io.quanta.core.policy.gandiva.GandivaPolicy;
import io.quanta.core.policy.quanta.QuantaPolicy;
import io.quanta.core.policy.srtf.SrtfOraclePolicy;
import io.quanta.core.policy.tiresias.TiresiasGittinsPolicy;
import io.quanta.core.policy.tiresias.TiresiasLasPolicy;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Policies by name. {@link #builtIn()} holds {@code fifo}, {@code srtf-oracle}, {@code tiresias-las},
 * {@code tiresias-gittins}, {@code gandiva} and {@code quanta}; {@link #with} adds more (immutable).
 */
public final class PolicyRegistry {

    /** Creates a policy from a validated configuration. */
    @FunctionalInterface
    public interface Factory {
        SchedulingPolicy create(PolicyConfig config);
    }

    private static final PolicyRegistry BUILT_IN = new PolicyRegistry(new TreeMap<>(Map.of(
            FifoPolicy.NAME, FifoPolicy::new,
            SrtfOraclePolicy.NAME, SrtfOraclePolicy::new,
            TiresiasLasPolicy.NAME, TiresiasLasPolicy::new,
            TiresiasGittinsPolicy.NAME, TiresiasGittinsPolicy::new,
            GandivaPolicy.NAME, GandivaPolicy::new,
            QuantaPolicy.NAME, QuantaPolicy::new)));

    private final SortedMap<String, Factory> factories;

    private PolicyRegistry(SortedMap<String, Factory> factories) {
        this.factories = Collections.unmodifiableSortedMap(factories);
    }

    /** The registry of the six built-in policies. */
    public static PolicyRegistry builtIn() {
        return BUILT_IN;
    }

    /** A registry that also knows {@code name}; refuses to replace an existing name. */
    public PolicyRegistry with(String name, Factory factory) {
        Objects.requireNonNull(factory, "factory");
        if (factories.containsKey(name)) {
            throw new IllegalArgumentException("policy '" + name + "' is already registered");
        }
        SortedMap<String, Factory> next = new TreeMap<>(factories);
        next.put(name, factory);
        return new PolicyRegistry(next);
    }

    /** Registered names, sorted. */
    public SortedSet<String> names() {
        return Collections.unmodifiableSortedSet(new TreeSet<>(factories.keySet()));
    }

    /**
     * Creates the policy named by the config's {@code policy} key.
     *
     * @throws InvalidPolicyConfigException when the name is not registered (the message lists the names)
     */
    public SchedulingPolicy create(PolicyConfig config) {
        Factory factory = factories.get(config.policyName());
        if (factory == null) {
            throw new InvalidPolicyConfigException(List.of(PolicyConfigKeys.POLICY.name() + ": unknown policy '"
                    + config.policyName() + "'; allowed: " + String.join(", ", factories.keySet())));
        }
        return factory.create(config);
    }

    /** Validates {@code params} (see {@link PolicyConfig#of}) and creates the policy they name. */
    public SchedulingPolicy create(Map<String, String> params) {
        return create(PolicyConfig.of(params));
    }
}
