package io.quanta.core.placement;

import java.util.Locale;

/**
 * Which placement rule a policy uses for multi-GPU jobs (config key {@code placement.strategy}).
 * CONSOLIDATED: fewest servers, then one rack (Philly), relaxed after the timeout. SKEW_AWARE: consolidate only models
 * whose tensor-size skew is at or above the threshold (Tiresias), others go wherever GPUs are free. ANYWHERE: never
 * wait for locality (still prefers fewer servers when it costs nothing).
 */
public enum PlacementMode {
    CONSOLIDATED,
    SKEW_AWARE,
    ANYWHERE;

    /** Config spelling, e.g. {@code skew-aware}. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Parses the config spelling; throws IllegalArgumentException for anything else. */
    public static PlacementMode parse(String text) {
        for (PlacementMode m : values()) {
            if (m.configName().equals(text)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown placement strategy '" + text + "'");
    }
}
