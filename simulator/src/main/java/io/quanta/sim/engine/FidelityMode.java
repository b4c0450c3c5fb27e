package io.quanta.sim.engine;

import io.quanta.node.model.InterferenceTable;
import io.quanta.node.model.ThroughputModel;
import io.quanta.node.model.ThroughputParameters;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * How faithfully simulated GPUs behave: the {@code --model} choices. The realistic model is the node connector's
 * standard throughput model; its variants change one group of its guesses about the hardware, so that no policy
 * default depends on one guess (issue 15).
 */
public enum FidelityMode {
    /**
     * What the Tiresias authors' simulator assumes: no locality slowdown, no interference, preemption and resume free
     * and instant (a suspended job reports SUSPENDED at the same virtual instant).
     */
    TIRESIAS_COMPATIBLE("tiresias-compatible"),
    /** The node connector's standard throughput model: locality slowdown by skew, interference, switch costs. */
    REALISTIC("realistic"),
    /**
     * The realistic model with every suspend and resume twice as costly: 2 s to reach the minibatch boundary, 20 s to
     * restart, checkpoints written and read at 500 MiB/s, at most 120 s each.
     */
    REALISTIC_SWITCH_X2("realistic-switch-x2"),
    /**
     * The realistic model where no pair of jobs gains from packing: Gandiva's two measured pairs are dropped and every
     * packed job loses half its speed, so a pack does at best what time slicing does.
     */
    REALISTIC_NO_PACK_GAIN("realistic-no-pack-gain"),
    /** The realistic model with half the locality slowdown: spreading a gang over servers and racks costs half. */
    REALISTIC_SPREAD_HALF("realistic-spread-half");

    private final String label;

    FidelityMode(String label) {
        this.label = label;
    }

    /** The {@code --model} value. */
    public String label() {
        return label;
    }

    /** The node connector's throughput model for this mode. */
    public ThroughputModel throughputModel() {
        return this == TIRESIAS_COMPATIBLE ? ThroughputModel.tiresiasCompatible() : ThroughputModel.of(parameters());
    }

    /** The throughput parameters of this mode (the standard ones for the two original modes). */
    public ThroughputParameters parameters() {
        ThroughputParameters p = ThroughputParameters.standard();
        return switch (this) {
            case TIRESIAS_COMPATIBLE, REALISTIC -> p;
            case REALISTIC_SWITCH_X2 -> new ThroughputParameters(p.serverSpreadOverhead(), p.crossRackOverhead(),
                    p.interference(), p.checkpointFixed().multipliedBy(2), p.restartFixed().multipliedBy(2),
                    p.checkpointMiBPerSecond() / 2, p.maxSwitchCost().multipliedBy(2), p.minibatchMillis());
            case REALISTIC_NO_PACK_GAIN -> new ThroughputParameters(p.serverSpreadOverhead(), p.crossRackOverhead(),
                    InterferenceTable.withDefault(0.5), p.checkpointFixed(), p.restartFixed(),
                    p.checkpointMiBPerSecond(), p.maxSwitchCost(), p.minibatchMillis());
            case REALISTIC_SPREAD_HALF -> new ThroughputParameters(p.serverSpreadOverhead() / 2,
                    p.crossRackOverhead() / 2, p.interference(), p.checkpointFixed(), p.restartFixed(),
                    p.checkpointMiBPerSecond(), p.maxSwitchCost(), p.minibatchMillis());
        };
    }

    /** The mode of a {@code --model} value. */
    public static FidelityMode parse(String text) {
        for (FidelityMode mode : values()) {
            if (mode.label.equals(text)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("unknown model '" + text + "': use "
                + Arrays.stream(values()).map(FidelityMode::label).collect(Collectors.joining(", ")));
    }
}
