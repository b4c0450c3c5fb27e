package io.quanta.node.model;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The numbers behind {@link ThroughputModel}, each with where it comes from. Use {@link #standard()} unless an
 * experiment varies one of them.
 *
 * @param serverSpreadOverhead extra minibatch time, as a fraction of the consolidated time, per doubling of the number
 *     of servers, for a fully skewed model (tensor-size skew 1); scaled linearly by the skew
 * @param crossRackOverhead extra minibatch time, as a fraction, when the gang spans more than one rack, for skew 1
 * @param interference slowdown of a job packed with another, by model family
 * @param checkpointFixed fixed part of a suspend: reach the minibatch boundary and write the checkpoint metadata
 * @param restartFixed fixed part of a resume: start the process, initialise the framework, rebuild the input pipeline
 * @param checkpointMiBPerSecond speed of writing or reading a checkpoint; the GPU memory of the model is the size read
 *     or written per GPU
 * @param maxSwitchCost upper bound of one suspend or one resume
 * @param minibatchMillis minibatch time on one dedicated GPU per model family, when the profile has no hint
 */
public record ThroughputParameters(double serverSpreadOverhead, double crossRackOverhead,
                                   InterferenceTable interference, Duration checkpointFixed, Duration restartFixed,
                                   double checkpointMiBPerSecond, Duration maxSwitchCost,
                                   Map<ModelFamily, Double> minibatchMillis) {

    public ThroughputParameters {
        Objects.requireNonNull(interference, "interference");
        requireNonNegative("serverSpreadOverhead", serverSpreadOverhead);
        requireNonNegative("crossRackOverhead", crossRackOverhead);
        if (!(checkpointMiBPerSecond > 0)) {
            throw new IllegalArgumentException("checkpointMiBPerSecond must be > 0, got " + checkpointMiBPerSecond);
        }
        if (checkpointFixed.isNegative() || restartFixed.isNegative() || maxSwitchCost.isNegative()) {
            throw new IllegalArgumentException("switch costs must not be negative");
        }
        minibatchMillis = Map.copyOf(minibatchMillis);
        if (!minibatchMillis.keySet().containsAll(java.util.EnumSet.allOf(ModelFamily.class))) {
            throw new IllegalArgumentException("minibatchMillis needs a value for every model family");
        }
    }

    /**
     * The default figures:
     * <ul>
     *   <li>{@code serverSpreadOverhead = 0.46}: Philly (Jeon et al., ATC'19) measured that communication took 58% of
     *       data-parallel training time on 8 x 4-GPU servers, i.e. 0.58 / 0.42 = 1.38 extra time over log2(8) = 3
     *       doublings. Cross-check with Philly's other figure: GPU utilisation of 16-GPU jobs 43.66% on 2 servers and
     *       28.56% on 8 (ratio 0.65); the model gives 0.42 / 0.685 = 0.61. Scaling by the tensor-size skew follows
     *       Tiresias (Gu et al., NSDI'19): only models with skewed tensors lose much when spread.</li>
     *   <li>{@code crossRackOverhead = 0.5}: our assumption. Philly keeps a gang inside one InfiniBand domain (rack)
     *       and saw jobs sharing the network interfere up to 7x; no paper gives a per-job figure, so we charge a
     *       conservative +50% for skew 1.</li>
     *   <li>interference: {@link InterferenceTable#gandiva()}.</li>
     *   <li>switch costs: the papers say a preemption costs "a checkpoint and a restart (seconds to a minute)"
     *       (Tiresias) and that suspending at a minibatch boundary, where GPU memory is lowest, is cheap (Gandiva).
     *       We take 1 s to reach the boundary, 10 s to restart, 1,000 MiB/s to write or read the checkpoint (the
     *       model's GPU memory), at most 60 s each. Our choice inside the papers' range.</li>
     *   <li>minibatch times: only turn simulated progress into minibatch counts for telemetry; rough figures of our
     *       own (ResNet-50 200 ms, VGG 250 ms, AlexNet 60 ms, Inception 300 ms, LSTM 100 ms, transformer 300 ms,
     *       other 150 ms).</li>
     * </ul>
     */
    public static ThroughputParameters standard() {
        Map<ModelFamily, Double> minibatch = new EnumMap<>(ModelFamily.class);
        minibatch.put(ModelFamily.RESNET, 200.0);
        minibatch.put(ModelFamily.VGG, 250.0);
        minibatch.put(ModelFamily.ALEXNET, 60.0);
        minibatch.put(ModelFamily.INCEPTION, 300.0);
        minibatch.put(ModelFamily.LANGUAGE, 100.0);
        minibatch.put(ModelFamily.TRANSFORMER, 300.0);
        minibatch.put(ModelFamily.OTHER, 150.0);
        return new ThroughputParameters(0.46, 0.5, InterferenceTable.gandiva(), Duration.ofSeconds(1),
                Duration.ofSeconds(10), 1_000.0, Duration.ofSeconds(60), minibatch);
    }

    private static void requireNonNegative(String name, double value) {
        if (!(value >= 0)) {
            throw new IllegalArgumentException(name + " must be >= 0, got " + value);
        }
    }
}
