package io.quanta.cli.local;

import io.quanta.core.config.ConfigKey;
import io.quanta.core.config.PolicyConfigKeys;
import io.quanta.streams.SchedulerConfigSection;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Time compression of {@code quanta local --speed F}: simulated nodes divide job durations by F and the workload's
 * arrivals come F times faster, so the scheduler must see its time-valued policy parameters divided by F too (a
 * Tiresias threshold of 3,250 GPU-seconds is 5.4 compressed GPU-seconds at 600x), else the policy would never demote,
 * slice or relax within a run. Durations the user states explicitly are compressed the same way. The pass interval is
 * compressed as well, but never below {@link #MIN_PASS_INTERVAL_MS}.
 *
 * @param speed the factor F, at least 1
 */
public record TimeCompression(double speed) {

    /** Policy parameters measured in (GPU-)seconds, scaled by {@code 1/speed}. */
    public static final List<ConfigKey<?>> TIME_KEYS = List.of(PolicyConfigKeys.RELAXATION_TIMEOUT_S,
            PolicyConfigKeys.THRESHOLDS, PolicyConfigKeys.PROMOTED_MIN_RUN_S, PolicyConfigKeys.GITTINS_PRIOR,
            PolicyConfigKeys.QUANTUM_S, PolicyConfigKeys.INTROSPECTION_WINDOW_S,
            PolicyConfigKeys.QUANTA_RELAXATION_TIMEOUT_S, PolicyConfigKeys.QUANTA_KNOB_MIN_WAIT_S,
            PolicyConfigKeys.QUANTA_PREEMPTION_BACKOFF_S, PolicyConfigKeys.QUANTA_RESERVE_AFTER_S,
            PolicyConfigKeys.QUANTA_MOVE_MIN_RUN_S);

    /** Shortest compressed pass interval. */
    public static final long MIN_PASS_INTERVAL_MS = 20;

    public TimeCompression {
        if (!(speed >= 1) || Double.isInfinite(speed)) {
            throw new IllegalArgumentException("--speed must be a number >= 1, got " + speed);
        }
    }

    /**
     * The scheduler settings for this speed: every time-valued policy parameter (the given value, else the
     * default) divided by the speed, and the pass interval compressed; nothing when the speed is 1.
     *
     * @param params the user's policy parameters by parameter name (without the {@code scheduler.policy.} prefix)
     * @param passIntervalMs the uncompressed pass interval
     * @return {@code scheduler.*} keys and values to override
     */
    public Map<String, String> schedulerOverrides(Map<String, String> params, long passIntervalMs) {
        Map<String, String> out = new LinkedHashMap<>();
        if (speed == 1) {
            return out;
        }
        for (ConfigKey<?> key : TIME_KEYS) {
            String given = params.getOrDefault(key.name(), key.defaultValue());
            key.parse(given);
            out.put(SchedulerConfigSection.POLICY_PARAM_PREFIX + key.name(), scaleList(given));
        }
        out.put(SchedulerConfigSection.PASS_INTERVAL_MS,
                Long.toString(Math.max(MIN_PASS_INTERVAL_MS, Math.round(passIntervalMs / speed))));
        return out;
    }

    /** Simulated seconds for {@code wallSeconds} of real time. */
    public double simulated(double wallSeconds) {
        return wallSeconds * speed;
    }

    private String scaleList(String values) {
        return Arrays.stream(values.split(",")).map(String::trim)
                .map(v -> format(Double.parseDouble(v) / speed)).collect(Collectors.joining(","));
    }

    private static String format(double v) {
        String s = String.format(Locale.ROOT, "%.6f", v);
        s = s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
        return s.equals("0") ? "0.000001" : s;
    }
}
