package io.quanta.core.model;

/**
 * A distribution of jobs' total service held as ascending values, each with a mass: the 2D-Gittins indices over it,
 * written once for the completed jobs' sample ({@link ServiceDistribution}, every value of mass 1), the product-limit
 * estimate ({@link CensoredService}, masses that sum to 1) and a tenant's jobs pooled with the cell's
 * ({@link PooledService}). Immutable.
 */
abstract sealed class HeldService implements ServiceEstimate permits ServiceDistribution, CensoredService,
        PooledService {

    /** Relative slack when comparing a cumulative mass with a quantile's share, against rounding in the products. */
    static final double SLACK = 1e-9;

    /** The held values, ascending. */
    final double[] values;
    /** The mass of the first k values summed, k = 0 to n; null when every value has a mass of 1. */
    private final double[] cumMass;
    /** {@code mass x value} of the first k values summed, k = 0 to n. */
    private final double[] cumService;

    /**
     * @param values the held values, ascending (kept, not copied)
     * @param masses each value's mass, or null for a mass of 1 each
     */
    HeldService(double[] values, double[] masses) {
        this.values = values;
        this.cumMass = masses == null ? null : new double[values.length + 1];
        this.cumService = new double[values.length + 1];
        for (int i = 0; i < values.length; i++) {
            double mass = masses == null ? 1 : masses[i];
            if (cumMass != null) {
                cumMass[i + 1] = cumMass[i] + mass;
            }
            cumService[i + 1] = cumService[i] + mass * values[i];
        }
    }

    /** The mass of the first {@code k} held values. */
    final double massOfFirst(int k) {
        return cumMass == null ? k : cumMass[k];
    }

    @Override
    public final double gittinsIndex(double attained, double lookAhead) {
        int lo = countAtMost(attained);
        if (lo == values.length || !(lookAhead > 0)) {
            return 0.0;
        }
        int hi = Double.isInfinite(lookAhead) ? values.length : countAtMost(attained + lookAhead);
        double done = massOfFirst(hi) - massOfFirst(lo);
        double serviceOfDone = cumService[hi] - cumService[lo] - done * attained;
        double serviceOfRest = Double.isInfinite(lookAhead) ? 0.0 : lookAhead * (totalMass() - massOfFirst(hi));
        double expected = serviceOfDone + serviceOfRest;
        return expected > 0 ? done / expected : 0.0;
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

    /**
     * The smallest held value with at least a share {@code q} of the mass at or below it (up to {@link #SLACK}).
     *
     * @throws IllegalStateException when nothing is held
     */
    final double quantileByMass(double q) {
        ServiceEstimate.checkQuantile(q);
        if (values.length == 0) {
            throw new IllegalStateException("no job's service observed yet");
        }
        double share = q * totalMass() * (1 - SLACK);
        for (int i = 0; i < values.length; i++) {
            if (massOfFirst(i + 1) >= share) {
                return values[i];
            }
        }
        return values[values.length - 1];
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
