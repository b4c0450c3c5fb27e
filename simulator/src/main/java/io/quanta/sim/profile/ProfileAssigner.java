package io.quanta.sim.profile;

import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The seeded rule that gives each trace job a model kind, since traces carry none: a job's kind depends only on the
 * seed and its id (not on the order of the trace or on other jobs), drawn from a fixed mix:
 * ResNet-50 25%, LSTM language model 20%, VGG-16 15%, Inception-v3 15%, Transformer 15%, AlexNet 10%.
 * The draw hashes {@code seed} and the UTF-8 bytes of the id with 64-bit FNV-1a and a SplitMix64 finaliser and maps
 * the result uniformly to [0, 1).
 */
public final class ProfileAssigner {

    private static final Map<ModelKind, Double> STANDARD_MIX = standardMix();

    private final long seed;
    private final ModelKind[] kinds;
    private final double[] cumulative;

    private ProfileAssigner(long seed, Map<ModelKind, Double> mix) {
        this.seed = seed;
        this.kinds = mix.keySet().toArray(ModelKind[]::new);
        this.cumulative = new double[kinds.length];
        double total = mix.values().stream().mapToDouble(Double::doubleValue).sum();
        if (!(total > 0)) {
            throw new IllegalArgumentException("the model mix needs a positive total weight");
        }
        double sum = 0;
        for (int i = 0; i < kinds.length; i++) {
            double w = mix.get(kinds[i]);
            if (w < 0) {
                throw new IllegalArgumentException("weight of " + kinds[i] + " must be >= 0, got " + w);
            }
            sum += w / total;
            cumulative[i] = sum;
        }
        cumulative[kinds.length - 1] = 1.0;
    }

    /** The standard mix with this seed. */
    public static ProfileAssigner standard(long seed) {
        return new ProfileAssigner(seed, STANDARD_MIX);
    }

    /** A custom mix (weights need not sum to 1) with this seed. */
    public static ProfileAssigner withMix(long seed, Map<ModelKind, Double> mix) {
        Objects.requireNonNull(mix, "mix");
        if (mix.isEmpty()) {
            throw new IllegalArgumentException("the model mix must not be empty");
        }
        return new ProfileAssigner(seed, new EnumMap<>(mix));
    }

    /** The standard mix, for documentation and tests. */
    public static Map<ModelKind, Double> standardMixWeights() {
        return STANDARD_MIX;
    }

    /** The kind of the job with this id. */
    public ModelKind kindOf(String jobId) {
        double u = uniform(jobId);
        for (int i = 0; i < kinds.length; i++) {
            if (u < cumulative[i]) {
                return kinds[i];
            }
        }
        return kinds[kinds.length - 1];
    }

    private double uniform(String jobId) {
        long h = 0xcbf29ce484222325L ^ seed;
        for (byte b : jobId.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        h += 0x9e3779b97f4a7c15L;
        h = (h ^ (h >>> 30)) * 0xbf58476d1ce4e5b9L;
        h = (h ^ (h >>> 27)) * 0x94d049bb133111ebL;
        h ^= h >>> 31;
        return (h >>> 11) * 0x1.0p-53;
    }

    private static Map<ModelKind, Double> standardMix() {
        Map<ModelKind, Double> mix = new EnumMap<>(ModelKind.class);
        mix.put(ModelKind.RESNET50, 0.25);
        mix.put(ModelKind.VGG16, 0.15);
        mix.put(ModelKind.INCEPTION3, 0.15);
        mix.put(ModelKind.ALEXNET, 0.10);
        mix.put(ModelKind.LSTM_LM, 0.20);
        mix.put(ModelKind.TRANSFORMER, 0.15);
        return java.util.Collections.unmodifiableMap(mix);
    }
}
