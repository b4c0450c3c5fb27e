package io.quanta.sim.metrics;

import java.util.Arrays;

/** Statistics over samples: nearest-rank percentiles and means, NaN for no samples. */
public final class Percentiles {

    private Percentiles() {
    }

    /** The nearest-rank {@code p}-th percentile (0 < p <= 100): the value at rank ceil(p/100 x n) of the sorted samples. */
    public static double nearestRank(double[] samples, double p) {
        if (!(p > 0 && p <= 100)) {
            throw new IllegalArgumentException("percentile must be in (0, 100], got " + p);
        }
        if (samples.length == 0) {
            return Double.NaN;
        }
        double[] sorted = samples.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(1, rank) - 1];
    }

    /** Arithmetic mean. */
    public static double mean(double[] samples) {
        return samples.length == 0 ? Double.NaN : Arrays.stream(samples).sum() / samples.length;
    }
}
