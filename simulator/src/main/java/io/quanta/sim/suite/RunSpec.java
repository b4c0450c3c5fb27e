package io.quanta.sim.suite;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One column of the suite: a policy with parameters under a label, e.g. {@code quanta} with its defaults, or
 * {@code quanta-no-budget} = {@code quanta} with {@code quanta.preemption-budget=off}.
 *
 * @param label column name and output directory name
 * @param policy registered policy name
 * @param params policy parameters besides {@code policy}
 */
public record RunSpec(String label, String policy, Map<String, String> params) {

    public RunSpec {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(policy, "policy");
        params = java.util.Collections.unmodifiableMap(new TreeMap<>(params));
        if (!label.matches("[a-z0-9][a-z0-9.=,_-]*")) {
            throw new IllegalArgumentException("run label must be lower-case words, got '" + label + "'");
        }
    }

    /** A policy with its defaults, labelled by its name. */
    public static RunSpec of(String policy) {
        return new RunSpec(policy, policy, Map.of());
    }

    /**
     * Parses {@code LABEL=POLICY} or {@code LABEL=POLICY:k=v,k=v}, or a bare policy name. A piece without {@code =}
     * continues the value before it, so list values need no quoting: {@code q=quanta:tiresias.thresholds=1000,3250}.
     *
     * @throws IllegalArgumentException naming the bad text
     */
    public static RunSpec parse(String text) {
        int eq = text.indexOf('=');
        if (eq < 0) {
            return of(text.trim());
        }
        String label = text.substring(0, eq).trim();
        String rest = text.substring(eq + 1);
        int colon = rest.indexOf(':');
        String policy = (colon < 0 ? rest : rest.substring(0, colon)).trim();
        Map<String, String> params = new TreeMap<>();
        if (colon >= 0) {
            String last = null;
            for (String kv : rest.substring(colon + 1).split(",")) {
                int e = kv.indexOf('=');
                if (e < 0 && last != null) {
                    params.put(last, params.get(last) + "," + kv.trim());
                    continue;
                }
                if (e <= 0) {
                    throw new IllegalArgumentException("run '" + text + "': parameter '" + kv + "' is not KEY=VALUE");
                }
                last = kv.substring(0, e).trim();
                params.put(last, kv.substring(e + 1).trim());
            }
        }
        return new RunSpec(label, policy, params);
    }

    /** Policy parameters including {@code policy}. */
    public Map<String, String> policyParams() {
        Map<String, String> all = new TreeMap<>(params);
        all.put("policy", policy);
        return all;
    }
}
