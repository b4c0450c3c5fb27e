package io.quanta.sim.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleFunction;

/**
 * Samples of the cluster's state on a regular grid of virtual time, for the report's plots. The state is piecewise
 * constant between simulation steps, so the loop calls {@link #advanceTo} before changing anything at a new instant
 * and every grid point crossed gets the state as it stood. Bounded: beyond {@code maxSamples} every other sample is
 * dropped and the grid step doubles.
 */
public final class Timeline {

    private final int maxSamples;
    private double step;
    private double next;
    private List<TimelineSample> samples = new ArrayList<>();

    /**
     * @param stepSeconds grid step, {@code > 0}
     * @param maxSamples most samples kept, at least 16
     */
    public Timeline(double stepSeconds, int maxSamples) {
        if (!(stepSeconds > 0)) {
            throw new IllegalArgumentException("step must be > 0, got " + stepSeconds);
        }
        if (maxSamples < 16) {
            throw new IllegalArgumentException("maxSamples must be >= 16, got " + maxSamples);
        }
        this.step = stepSeconds;
        this.maxSamples = maxSamples;
    }

    /** Records a sample at every grid point up to {@code seconds} (inclusive), each made by {@code state}. */
    public void advanceTo(double seconds, DoubleFunction<TimelineSample> state) {
        while (next <= seconds) {
            samples.add(state.apply(next));
            next += step;
            if (samples.size() > maxSamples) {
                thin();
            }
        }
    }

    /** The samples so far, in time order. */
    public List<TimelineSample> samples() {
        return List.copyOf(samples);
    }

    private void thin() {
        List<TimelineSample> kept = new ArrayList<>(samples.size() / 2 + 1);
        for (int i = 0; i < samples.size(); i += 2) {
            kept.add(samples.get(i));
        }
        samples = kept;
        step *= 2;
        next = samples.get(samples.size() - 1).atSeconds() + step;
    }
}
