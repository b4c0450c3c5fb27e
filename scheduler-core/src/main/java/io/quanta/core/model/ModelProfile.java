package io.quanta.core.model;

import java.util.Objects;

/**
 * What the scheduler knows about the model a job trains: its name (the kind used by interference memory),
 * tensor-size skew (high means communication-bound, so consolidation matters), GPU memory needed at a minibatch
 * boundary (0 = unknown, never packed) and the base minibatch time on a dedicated, consolidated placement
 * (NaN = unknown).
 */
public record ModelProfile(String modelName, double tensorSizeSkew, long gpuMemoryMiB, double minibatchMillis) {

    /** Profile of a job that declared nothing: unknown model, no skew, unknown memory and speed. */
    public static final ModelProfile UNKNOWN = new ModelProfile("unknown", 0.0, 0L, Double.NaN);

    public ModelProfile {
        Objects.requireNonNull(modelName, "modelName");
        if (Double.isNaN(tensorSizeSkew) || tensorSizeSkew < 0) {
            throw new IllegalArgumentException("tensorSizeSkew must be >= 0, got " + tensorSizeSkew);
        }
        if (gpuMemoryMiB < 0) {
            throw new IllegalArgumentException("gpuMemoryMiB must be >= 0, got " + gpuMemoryMiB);
        }
    }

    /** True when the memory need is known, which packing requires. */
    public boolean memoryKnown() {
        return gpuMemoryMiB > 0;
    }

    /** Minibatches per second on a dedicated placement, or NaN when the minibatch time is unknown. */
    public double soloThroughput() {
        return minibatchMillis > 0 ? 1000.0 / minibatchMillis : Double.NaN;
    }
}
