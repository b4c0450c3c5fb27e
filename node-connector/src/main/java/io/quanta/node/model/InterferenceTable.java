package io.quanta.node.model;

import java.util.EnumMap;
import java.util.Map;

/**
 * Pairwise slowdown of a job packed on the same GPU(s) as another job, by model family: {@code slowdown(victim,
 * other)} is the fraction of its dedicated speed the victim loses, 0 (no effect) to just below 1. Pairs not in the table
 * use a default. Immutable; build with {@link #withDefault(double)} and {@link #with(ModelFamily, ModelFamily, double)}.
 */
public final class InterferenceTable {

    private final double defaultSlowdown;
    private final Map<ModelFamily, Map<ModelFamily, Double>> pairs;

    private InterferenceTable(double defaultSlowdown, Map<ModelFamily, Map<ModelFamily, Double>> pairs) {
        this.defaultSlowdown = checkSlowdown(defaultSlowdown);
        this.pairs = pairs;
    }

    /** A table where every pair has this slowdown. */
    public static InterferenceTable withDefault(double defaultSlowdown) {
        return new InterferenceTable(defaultSlowdown, new EnumMap<>(ModelFamily.class));
    }

    /**
     * The table with Gandiva's measured pairs and a default of 0.5 for the rest:
     * <ul>
     *   <li>language model with language model: 0.19 each (Gandiva: "two language-model jobs co-located each slowed
     *       about 19%");</li>
     *   <li>ResNet with a language model: 0.0 (Gandiva: "ResNet-50 was not slowed by a co-located LM job");</li>
     *   <li>any other pair: 0.5, our assumption: two jobs that each saturate the GPU get half of it each, the same as
     *       time slicing, so packing is never assumed to pay off for a pair nobody measured.</li>
     * </ul>
     * Gandiva's figures are for co-located jobs; we apply them to jobs sharing a GPU.
     */
    public static InterferenceTable gandiva() {
        return withDefault(0.5)
                .with(ModelFamily.LANGUAGE, ModelFamily.LANGUAGE, 0.19)
                .with(ModelFamily.RESNET, ModelFamily.LANGUAGE, 0.0);
    }

    /** This table plus one directed pair: {@code victim} loses {@code slowdown} when packed with {@code other}. */
    public InterferenceTable with(ModelFamily victim, ModelFamily other, double slowdown) {
        Map<ModelFamily, Map<ModelFamily, Double>> copy = new EnumMap<>(ModelFamily.class);
        pairs.forEach((k, v) -> copy.put(k, new EnumMap<>(v)));
        copy.computeIfAbsent(victim, k -> new EnumMap<>(ModelFamily.class)).put(other, checkSlowdown(slowdown));
        return new InterferenceTable(defaultSlowdown, copy);
    }

    /** Fraction of its speed {@code victim} loses when packed with {@code other}, in [0, 1). */
    public double slowdown(ModelFamily victim, ModelFamily other) {
        return pairs.getOrDefault(victim, Map.of()).getOrDefault(other, defaultSlowdown);
    }

    private static double checkSlowdown(double slowdown) {
        if (!(slowdown >= 0.0 && slowdown < 1.0)) {
            throw new IllegalArgumentException("slowdown must be in [0, 1), got " + slowdown);
        }
        return slowdown;
    }
}
