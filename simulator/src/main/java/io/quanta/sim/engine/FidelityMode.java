package io.quanta.sim.engine;

import io.quanta.node.model.ThroughputModel;
import java.util.Arrays;
import java.util.stream.Collectors;

/** How faithfully simulated GPUs behave: the two {@code --model} choices. */
public enum FidelityMode {
    /**
     * What the Tiresias authors' simulator assumes: no locality slowdown, no interference, preemption and resume free
     * and instant (a suspended job reports SUSPENDED at the same virtual instant).
     */
    TIRESIAS_COMPATIBLE("tiresias-compatible"),
    /** The node connector's standard throughput model: locality slowdown by skew, interference, switch costs. */
    REALISTIC("realistic");

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
        return this == TIRESIAS_COMPATIBLE ? ThroughputModel.tiresiasCompatible() : ThroughputModel.standard();
    }

    /** The mode of a {@code --model} value. */
    public static FidelityMode parse(String text) {
        for (FidelityMode mode : values()) {
            if (mode.label.equals(text)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("unknown model '" + text + "': use "
                + Arrays.stream(values()).map(FidelityMode::label).collect(Collectors.joining(" or ")));
    }
}
