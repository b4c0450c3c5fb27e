package io.quanta.chaos.observe;

import java.util.List;
import java.util.Locale;

/** Percentiles of measured durations (nearest rank). */
public final class Stats {

    private Stats() {
    }

    /** The {@code p}-th percentile (0 < p <= 100) of {@code values}, NaN when there are none. */
    public static double percentile(List<? extends Number> values, double p) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        double[] sorted = values.stream().mapToDouble(Number::doubleValue).sorted().toArray();
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    public static double max(List<? extends Number> values) {
        return values.stream().mapToDouble(Number::doubleValue).max().orElse(Double.NaN);
    }

    /** Millis as seconds with one decimal, e.g. {@code 12.3 s}. */
    public static String seconds(double millis) {
        return Double.isNaN(millis) ? "n/a" : String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }

    /** Millis as {@code 123 ms}. */
    public static String millis(double millis) {
        return Double.isNaN(millis) ? "n/a" : String.format(Locale.ROOT, "%.0f ms", millis);
    }
}
