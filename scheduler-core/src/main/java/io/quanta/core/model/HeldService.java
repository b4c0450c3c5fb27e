package io.quanta.core.model;

/**
 * A distribution of jobs' total service held as ascending values, each with a mass: the 2D-Gittins indices over it,
 * written once for the completed jobs' sample ({@link ServiceDistribution}, every value of mass 1) and the
 * product-limit estimate ({@link CensoredService}, masses that sum to 1). Immutable.
 */
abstract sealed class HeldService implements ServiceEstimate permits ServiceDistribution, CensoredService {

    /** The held values, ascending. */
    final double[] values;
    /** {@code mass x value} of the first k values summed, k = 0 to n. */
    private final double[] cumService;

    /**
     * @param values the held values, ascending (kept, not copied)
     * @param masses each value's mass, or null for a mass of 1 each
     */
    HeldService(double[] values, double[] masses) {
        this.values = values;
        this.cumService = new double[values.length + 1];
        for (int i = 0; i < values.length; i++) {
            cumService[i + 1] = cumService[i] + (masses == null ? values[i] : masses[i] * values[i]);
        }
    }

    /** The mass of the first {@code k} held values. */
    abstract double massOfFirst(int k);

    @Override
    public final double gittinsIndex(double attained, double lookAhead) {
        if (!(lookAhead > 0)) {
            return 0.0;
        }
        double expected = expectedService(attained, lookAhead);
        return expected > 0 ? doneMass(attained, lookAhead) / expected : 0.0;
    }

    /** The mass of the values in {@code (attained, attained + lookAhead]}, not divided by the mass above. */
    final double doneMass(double attained, double lookAhead) {
        int lo = countAtMost(attained);
        int hi = Double.isInfinite(lookAhead) ? values.length : countAtMost(attained + lookAhead);
        return hi > lo ? massOfFirst(hi) - massOfFirst(lo) : 0.0;
    }

    /** The sum over the mass above {@code attained} of {@code min(value - attained, lookAhead)}, not divided either. */
    final double expectedService(double attained, double lookAhead) {
        int lo = countAtMost(attained);
        if (lo == values.length) {
            return 0.0;
        }
        int hi = Double.isInfinite(lookAhead) ? values.length : countAtMost(attained + lookAhead);
        double done = massOfFirst(hi) - massOfFirst(lo);
        double serviceOfDone = cumService[hi] - cumService[lo] - done * attained;
        double serviceOfRest = Double.isInfinite(lookAhead) ? 0.0 : lookAhead * (totalMass() - massOfFirst(hi));
        return serviceOfDone + serviceOfRest;
    }

    @Override
    public final double bestIndex(double attained) {
        int lo = countAtMost(attained);
        double total = totalMass();
        double best = 0.0;
        for (int k = lo + 1; k <= values.length; k++) {
            double done = massOfFirst(k) - massOfFirst(lo);
            double expected = cumService[k] - cumService[lo] - done * attained
                    + (values[k - 1] - attained) * (total - massOfFirst(k));
            if (expected > 0) {
                best = Math.max(best, done / expected);
            }
        }
        return best;
    }

    @Override
    public final boolean hasSampleAbove(double attained) {
        return countAtMost(attained) < values.length;
    }

    /** The total mass held. */
    final double totalMass() {
        return massOfFirst(values.length);
    }

    /** Number of held values {@code <= x}. */
    final int countAtMost(double x) {
        return countAtMost(values, x);
    }

    /** Number of values {@code <= x} in an ascending array (binary search). */
    static int countAtMost(double[] sorted, double x) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] <= x) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
