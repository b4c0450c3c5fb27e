package io.quanta.node.gpu;

import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * Device memory of common GPU models, in MiB, for simulated GPUs. Names are matched case-insensitively, ignoring
 * spaces, dashes and underscores ({@code "v100-32gb"} = {@code "V100 32GB"}). Figures are the vendors' nominal sizes.
 */
public final class GpuModels {

    /** Memory assumed for a model this table does not know. */
    public static final int DEFAULT_MEMORY_MIB = 16_384;

    private static final Map<String, Integer> MEMORY_MIB = new TreeMap<>(Map.ofEntries(
            Map.entry("K80", 12_288),
            Map.entry("M40", 12_288),
            Map.entry("P40", 24_576),
            Map.entry("P100", 16_384),
            Map.entry("T4", 15_360),
            Map.entry("V100", 16_384),
            Map.entry("V10016GB", 16_384),
            Map.entry("V10032GB", 32_768),
            Map.entry("RTX2080TI", 11_264),
            Map.entry("RTX3090", 24_576),
            Map.entry("A10", 24_576),
            Map.entry("A30", 24_576),
            Map.entry("A100", 40_960),
            Map.entry("A10040GB", 40_960),
            Map.entry("A10080GB", 81_920),
            Map.entry("L4", 23_034),
            Map.entry("L40S", 46_068),
            Map.entry("H100", 81_920),
            Map.entry("H200", 143_771)));

    private GpuModels() {
    }

    /** Memory of the model in MiB, if the table knows it. */
    public static OptionalInt memoryMiB(String model) {
        Integer mib = MEMORY_MIB.get(normalise(model));
        return mib == null ? OptionalInt.empty() : OptionalInt.of(mib);
    }

    /** The model names this table knows (normalised). */
    public static java.util.Set<String> known() {
        return MEMORY_MIB.keySet();
    }

    private static String normalise(String model) {
        return model.toUpperCase(Locale.ROOT).replaceAll("[\\s_\\-]", "");
    }
}
