package io.quanta.core.model;

/**
 * A tenant's estimate of its jobs' service pooled with the cell's: the tenant's own completed jobs (mass 1 each) and
 * {@code priorJobs} more jobs spread as the cell's estimate is (its mass scaled to {@code priorJobs}). Every figure of
 * the 2D-Gittins index is a sum over the mass above the attained service, so the pooled index is
 * {@code (done_own + c x done_cell) / (expected_own + c x expected_cell)} with {@code c = priorJobs / cell mass}.
 *
 * <p>Why: a few dozen jobs of one tenant can hold no job that ended within a look-ahead that a share of the cell's
 * jobs end within; the tenant's estimate alone then says its next job cannot end there (index 0), and a job with
 * index 0 preempts nobody, however much longer its victim runs. With a few jobs' worth of the cell's estimate pooled
 * in, such a job's index is small but above 0, and the tenant's own jobs still decide wherever they say something.
 * This is additive smoothing of an empirical distribution toward a prior, written here because the index needs the
 * sums of the two held distributions, which no library estimate exposes. Immutable.
 */
public final class PooledService implements ServiceEstimate {

    /** Rounding slack of a quantile's share, as {@link CensoredService}'s. */
    private static final double SLACK = 1e-9;

    private final HeldService own;
    private final HeldService prior;
    private final double scale;

    private PooledService(HeldService own, HeldService prior, double priorJobs) {
        this.own = own;
        this.prior = prior;
        this.scale = priorJobs / prior.totalMass();
    }

    /**
     * The tenant's estimate {@code own} pooled with {@code priorJobs} jobs spread as {@code prior}; {@code own} itself
     * when {@code priorJobs} is 0 or {@code prior} holds nothing.
     *
     * @throws IllegalArgumentException when {@code priorJobs} is negative or not a number
     */
    public static ServiceEstimate of(ServiceEstimate own, ServiceEstimate prior, double priorJobs) {
        if (!(priorJobs >= 0) || Double.isInfinite(priorJobs)) {
            throw new IllegalArgumentException("prior jobs must be a number >= 0, got " + priorJobs);
        }
        if (priorJobs == 0 || prior.size() == 0) {
            return own;
        }
        return new PooledService(held(own), held(prior), priorJobs);
    }

    private static HeldService held(ServiceEstimate estimate) {
        if (estimate instanceof HeldService h) {
            return h;
        }
        throw new IllegalArgumentException("cannot pool " + estimate.getClass().getSimpleName());
    }

    @Override
    public double gittinsIndex(double attained, double lookAhead) {
        if (!(lookAhead > 0)) {
            return 0.0;
        }
        double expected = own.expectedService(attained, lookAhead) + scale * prior.expectedService(attained, lookAhead);
        double done = own.doneMass(attained, lookAhead) + scale * prior.doneMass(attained, lookAhead);
        return expected > 0 ? done / expected : 0.0;
    }

    /** The largest lies at a look-ahead that ends at a held value of either estimate (see the interface). */
    @Override
    public double bestIndex(double attained) {
        double best = 0.0;
        for (HeldService h : new HeldService[] {own, prior}) {
            for (int k = h.countAtMost(attained); k < h.values.length; k++) {
                best = Math.max(best, gittinsIndex(attained, h.values[k] - attained));
            }
        }
        return best;
    }

    @Override
    public boolean hasSampleAbove(double attained) {
        return own.hasSampleAbove(attained) || prior.hasSampleAbove(attained);
    }

    /** The smallest held value of either estimate with at least a share {@code q} of the pooled mass at or below it. */
    @Override
    public double quantile(double q) {
        ServiceEstimate.checkQuantile(q);
        double share = q * (own.totalMass() + scale * prior.totalMass()) * (1 - SLACK);
        int i = 0;
        int j = 0;
        while (i < own.values.length || j < prior.values.length) {
            double value = j == prior.values.length || (i < own.values.length && own.values[i] <= prior.values[j])
                    ? own.values[i++] : prior.values[j++];
            if (own.massOfFirst(i) + scale * prior.massOfFirst(j) >= share) {
                return value;
            }
        }
        throw new IllegalStateException("a pooled estimate holds its prior's values, so a quantile < 1 is reached");
    }

    /** The tenant's own completed jobs it holds (the pooled ones are not jobs of its own). */
    @Override
    public int size() {
        return own.size();
    }
}
