package io.quanta.node.model;

import io.quanta.schemas.ModelProfile;
import java.time.Duration;
import java.util.Objects;

/**
 * How fast a training job progresses on simulated GPUs, shared by the simulated node backend and the simulator. Pure
 * and deterministic. A job's speed is the fraction of its full speed (alone on a consolidated placement) it makes:
 * <pre>
 *   locality     = 1 / (1 + skew * (serverSpreadOverhead * log2(servers) + crossRackOverhead * [racks &gt; 1]))
 *   interference = product over packed partners p of (1 - slowdown(family(job), family(p)))
 *   speed        = locality * interference
 * </pre>
 * A suspend costs {@code checkpointFixed + memory / bandwidth}, a resume {@code restartFixed + memory / bandwidth}, each
 * capped. The {@linkplain #tiresiasCompatible() Tiresias-compatible} model makes the assumptions of the Tiresias
 * authors' simulator instead: speed always 1, suspend and resume free and instant.
 */
public final class ThroughputModel {

    private final ThroughputParameters parameters;
    private final boolean tiresiasCompatible;

    private ThroughputModel(ThroughputParameters parameters, boolean tiresiasCompatible) {
        this.parameters = Objects.requireNonNull(parameters, "parameters");
        this.tiresiasCompatible = tiresiasCompatible;
    }

    /** The model with {@link ThroughputParameters#standard()}. */
    public static ThroughputModel standard() {
        return new ThroughputModel(ThroughputParameters.standard(), false);
    }

    /** The model with the given parameters. */
    public static ThroughputModel of(ThroughputParameters parameters) {
        return new ThroughputModel(parameters, false);
    }

    /** No locality slowdown, no interference, free and instant preemption: what the Tiresias simulator assumes. */
    public static ThroughputModel tiresiasCompatible() {
        return new ThroughputModel(ThroughputParameters.standard(), true);
    }

    /** The model named {@code standard} or {@code tiresias-compatible}. */
    public static ThroughputModel named(String name) {
        return switch (name) {
            case "standard" -> standard();
            case "tiresias-compatible" -> tiresiasCompatible();
            default -> throw new IllegalArgumentException("unknown throughput model '" + name
                    + "': use standard or tiresias-compatible");
        };
    }

    /** Whether this is the Tiresias-compatible model. */
    public boolean isTiresiasCompatible() {
        return tiresiasCompatible;
    }

    /** The parameters in use (ignored by the Tiresias-compatible model except for minibatch times). */
    public ThroughputParameters parameters() {
        return parameters;
    }

    /** Fraction of full speed, in (0, 1], at which the job progresses on this placement. */
    public double speed(JobPlacementView view) {
        if (tiresiasCompatible) {
            return 1.0;
        }
        return localityFactor(view) * interferenceFactor(view);
    }

    /** The part of the speed lost to a spread placement, in (0, 1]. */
    public double localityFactor(JobPlacementView view) {
        if (tiresiasCompatible || view.servers() == 1) {
            return 1.0;
        }
        double skew = Math.max(0.0, Math.min(1.0, view.profile().getTensorSizeSkew()));
        double log2Servers = Math.log(view.servers()) / Math.log(2);
        double overhead = parameters.serverSpreadOverhead() * log2Servers
                + (view.racks() > 1 ? parameters.crossRackOverhead() : 0.0);
        return 1.0 / (1.0 + skew * overhead);
    }

    /** The part of the speed lost to the jobs packed on the same GPUs, in (0, 1]. */
    public double interferenceFactor(JobPlacementView view) {
        if (tiresiasCompatible) {
            return 1.0;
        }
        ModelFamily self = ModelFamily.of(view.profile().getModelName());
        double factor = 1.0;
        for (ModelProfile partner : view.packedWith()) {
            factor *= 1.0 - parameters.interference().slowdown(self, ModelFamily.of(partner.getModelName()));
        }
        return factor;
    }

    /** Time from a suspend request until the job has checkpointed and released its GPUs. */
    public Duration suspendCost(ModelProfile profile) {
        return tiresiasCompatible ? Duration.ZERO : switchCost(parameters.checkpointFixed(), profile);
    }

    /** Time from a resume (start from a checkpoint) until the job makes progress again. */
    public Duration resumeCost(ModelProfile profile) {
        return tiresiasCompatible ? Duration.ZERO : switchCost(parameters.restartFixed(), profile);
    }

    /** Minibatch time on one dedicated GPU: the profile's hint, else the default of the model's family. */
    public Duration minibatchTime(ModelProfile profile) {
        Double hint = profile.getMinibatchMillis();
        double millis = hint != null && hint > 0 ? hint
                : parameters.minibatchMillis().get(ModelFamily.of(profile.getModelName()));
        return Duration.ofNanos(Math.max(1L, Math.round(millis * 1_000_000.0)));
    }

    private Duration switchCost(Duration fixed, ModelProfile profile) {
        long transferMillis = Math.round(Math.max(0, profile.getGpuMemoryMiB()) * 1000.0
                / parameters.checkpointMiBPerSecond());
        Duration cost = fixed.plusMillis(transferMillis);
        return cost.compareTo(parameters.maxSwitchCost()) > 0 ? parameters.maxSwitchCost() : cost;
    }
}
