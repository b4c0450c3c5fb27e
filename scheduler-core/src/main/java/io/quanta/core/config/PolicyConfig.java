package io.quanta.core.config;

import io.quanta.core.model.InterferenceMemory;
import io.quanta.core.model.ServiceDistribution;
import io.quanta.core.placement.PlacementRule;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Typed, validated policy configuration: plain {@code Map<String,String>} parameters (keys in
 * {@link PolicyConfigKeys}, plus {@code quota.<tenant>}) merged over the defaults. Immutable. {@link #canonical()}
 * renders the effective configuration deterministically so the topology can hash and record it.
 */
public final class PolicyConfig {

    private final SortedMap<String, String> effective;
    private final Map<String, Object> parsed;
    private final SortedMap<String, Integer> quotas;

    private PolicyConfig(SortedMap<String, String> effective, Map<String, Object> parsed,
                         SortedMap<String, Integer> quotas) {
        this.effective = Collections.unmodifiableSortedMap(effective);
        this.parsed = Map.copyOf(parsed);
        this.quotas = Collections.unmodifiableSortedMap(quotas);
    }

    /** The defaults of every key (policy {@code quanta}). */
    public static PolicyConfig defaults() {
        return of(Map.of());
    }

    /** The defaults with another policy name. */
    public static PolicyConfig defaults(String policyName) {
        return of(Map.of(PolicyConfigKeys.POLICY.name(), policyName));
    }

    /**
     * Validates {@code params} and merges them over the defaults.
     *
     * @throws InvalidPolicyConfigException listing every unknown key and bad value, each with the allowed values
     */
    public static PolicyConfig of(Map<String, String> params) {
        List<String> problems = new ArrayList<>();
        SortedMap<String, String> effective = new TreeMap<>();
        Map<String, Object> parsed = new HashMap<>();
        SortedMap<String, Integer> quotas = new TreeMap<>();
        Map<String, ConfigKey<?>> known = new HashMap<>();
        for (ConfigKey<?> key : PolicyConfigKeys.ALL) {
            known.put(key.name(), key);
        }
        for (String name : new TreeMap<>(params).keySet()) {
            String value = params.get(name);
            if (value == null) {
                problems.add(name + ": value must not be null");
            } else if (!known.containsKey(name) && name.startsWith(PolicyConfigKeys.QUOTA_PREFIX)) {
                parseQuota(name, value, quotas, problems);
                effective.put(name, value.trim());
            } else if (!known.containsKey(name)) {
                problems.add(name + ": unknown key; known keys: "
                        + String.join(", ", known.keySet().stream().sorted().toList())
                        + ", " + PolicyConfigKeys.QUOTA_PREFIX + "<tenant>");
            }
        }
        for (ConfigKey<?> key : PolicyConfigKeys.ALL) {
            String text = params.getOrDefault(key.name(), key.defaultValue());
            if (text == null) {
                continue;
            }
            try {
                parsed.put(key.name(), key.parse(text));
                effective.put(key.name(), text.trim());
            } catch (IllegalArgumentException e) {
                problems.add(e.getMessage());
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidPolicyConfigException(problems);
        }
        return new PolicyConfig(effective, parsed, quotas);
    }

    private static void parseQuota(String name, String value, SortedMap<String, Integer> quotas, List<String> problems) {
        String tenant = name.substring(PolicyConfigKeys.QUOTA_PREFIX.length());
        if (tenant.isEmpty()) {
            problems.add(name + ": tenant name missing; use quota.<tenant>=<GPUs>");
            return;
        }
        try {
            int gpus = Integer.parseInt(value.trim());
            if (gpus < 0) {
                throw new NumberFormatException("negative");
            }
            quotas.put(tenant, gpus);
        } catch (NumberFormatException e) {
            problems.add(name + ": invalid value '" + value + "'; allowed: an integer number of GPUs >= 0");
        }
    }

    /** The typed value of a key (the default when not given). */
    @SuppressWarnings("unchecked")
    public <T> T get(ConfigKey<T> key) {
        Object value = parsed.get(key.name());
        if (value == null) {
            throw new IllegalArgumentException("not a policy config key: " + key.name());
        }
        return (T) value;
    }

    /** The configured policy name (key {@code policy}). */
    public String policyName() {
        return get(PolicyConfigKeys.POLICY);
    }

    /** A copy with one more parameter, validated again. */
    public PolicyConfig with(String key, String value) {
        Map<String, String> next = new HashMap<>(effective);
        next.put(key, value);
        return of(next);
    }

    /** Explicit per-tenant GPU quotas, by tenant. */
    public SortedMap<String, Integer> quotas() {
        return quotas;
    }

    /** Quota of a tenant: its explicit quota, else {@code quota.default}; empty = unlimited. */
    public OptionalDouble quotaOf(String tenant) {
        Integer explicit = quotas.get(tenant);
        return explicit != null ? OptionalDouble.of(explicit) : get(PolicyConfigKeys.DEFAULT_QUOTA);
    }

    /** True when any tenant has a quota. */
    public boolean quotasEnabled() {
        return !quotas.isEmpty() || get(PolicyConfigKeys.DEFAULT_QUOTA).isPresent();
    }

    /** Every effective key and value (defaults included), sorted by key. */
    public SortedMap<String, String> effective() {
        return effective;
    }

    /** Canonical rendering: one {@code key=value} line per effective key, sorted, '\n'-terminated. Hash this. */
    public String canonical() {
        StringBuilder out = new StringBuilder();
        effective.forEach((k, v) -> out.append(k).append('=').append(v).append('\n'));
        return out.toString();
    }

    /** The empty completed-job service distribution this config asks the processor to start with. */
    public ServiceDistribution newServiceDistribution() {
        return ServiceDistribution.empty(get(PolicyConfigKeys.GITTINS_CAPACITY), get(PolicyConfigKeys.GITTINS_SEED));
    }

    /** The placement rule configured by the {@code placement.*} keys. */
    public PlacementRule placementRule() {
        return new PlacementRule(get(PolicyConfigKeys.PLACEMENT_STRATEGY), get(PolicyConfigKeys.SKEW_THRESHOLD),
                get(PolicyConfigKeys.RELAXATION_TIMEOUT_S));
    }

    /** The empty interference memory this config asks the processor to start with. */
    public InterferenceMemory newInterferenceMemory() {
        return InterferenceMemory.empty(get(PolicyConfigKeys.INTERFERENCE_CAPACITY));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PolicyConfig c && c.effective.equals(effective);
    }

    @Override
    public int hashCode() {
        return effective.hashCode();
    }

    @Override
    public String toString() {
        return "PolicyConfig" + effective;
    }
}
