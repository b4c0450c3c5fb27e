package io.quanta.sim.engine;

import io.quanta.core.config.PolicyConfig;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Run parameters of the simulated deployment rather than of the policy, given among a run's policy parameters under
 * the {@code sim.} prefix ({@code quanta simulate --param sim.telemetry-window-s=10}, a suite column
 * {@code q10=quanta:sim.telemetry-window-s=10}), so that a suite column or a decision fingerprint covers them as it
 * covers policy keys. The policy never sees them.
 */
public final class EngineParams {

    /** The prefix of every key of this class. */
    public static final String PREFIX = "sim.";

    /**
     * Seconds of the node connector's telemetry window ({@code node.telemetry.window.ms}) to emulate: each attempt's
     * throughput reaches the scheduler as the average over the window that ends at the next multiple of it, as the
     * connector's {@code TelemetryAggregator} reports it; 0 (the default) reports every change at once.
     */
    public static final String TELEMETRY_WINDOW_S = PREFIX + "telemetry-window-s";

    private static final Set<String> KEYS = Set.of(TELEMETRY_WINDOW_S);
    private static final double MAX_WINDOW_S = 3_600;

    private EngineParams() {
    }

    /**
     * Checks a run's parameters whole: the keys of this class here, the rest as the policy's configuration.
     *
     * @throws IllegalArgumentException naming every bad key or value
     *     ({@link io.quanta.core.config.InvalidPolicyConfigException} for the policy's)
     */
    public static void validate(Map<String, String> params) {
        apply(EngineSettings.defaults(), params);
        PolicyConfig.of(policyOnly(params));
    }

    /** {@code params} without the keys of this class. */
    public static Map<String, String> policyOnly(Map<String, String> params) {
        Map<String, String> policy = new TreeMap<>(params);
        policy.keySet().removeIf(k -> k.startsWith(PREFIX));
        return policy;
    }

    /**
     * {@code base} with the keys of this class in {@code params} applied.
     *
     * @throws IllegalArgumentException naming an unknown {@code sim.} key or a bad value
     */
    public static EngineSettings apply(EngineSettings base, Map<String, String> params) {
        EngineSettings settings = base;
        for (Map.Entry<String, String> e : new TreeMap<>(params).entrySet()) {
            if (!e.getKey().startsWith(PREFIX)) {
                continue;
            }
            if (!KEYS.contains(e.getKey())) {
                throw new IllegalArgumentException("unknown simulation key '" + e.getKey() + "'; known: "
                        + String.join(", ", new java.util.TreeSet<>(KEYS)));
            }
            settings = settings.withTelemetryWindow(window(e.getValue()));
        }
        return settings;
    }

    private static Duration window(String text) {
        double seconds;
        try {
            seconds = Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(TELEMETRY_WINDOW_S + " must be a number of seconds, got '" + text + "'",
                    e);
        }
        if (!(seconds >= 0) || seconds > MAX_WINDOW_S) {
            throw new IllegalArgumentException(TELEMETRY_WINDOW_S + " must be between 0 and " + (long) MAX_WINDOW_S
                    + " s, got " + text);
        }
        Duration window = Duration.ofMillis(Math.round(seconds * 1_000));
        if (seconds > 0 && window.isZero()) {
            // would silently mean "every change at once", the opposite of what a window asks for
            throw new IllegalArgumentException(TELEMETRY_WINDOW_S + " must be 0 or at least 0.001 s, got " + text);
        }
        return window;
    }
}
