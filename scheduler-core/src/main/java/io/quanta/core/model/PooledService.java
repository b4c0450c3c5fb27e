package io.quanta.core.model;

/**
 * A tenant's estimate of its jobs' service pooled with the cell's: the tenant's own completed jobs (mass 1 each) and
 * {@code priorJobs} more jobs spread as the cell's estimate is (its masses scaled to sum to {@code priorJobs}), held
 * as one distribution, so that the 2D-Gittins indices and quantiles are {@link HeldService}'s over the pooled mass.
 *
 * <p>Why: a few dozen jobs of one tenant can hold no job that ended within a look-ahead that a share of the cell's
 * jobs end within; the tenant's estimate alone then says its next job cannot end there (index 0), and a job with
 * index 0 preempts nobody, however much longer its victim runs. With a few jobs' worth of the cell's estimate pooled
 * in, such a job's index is small but above 0, and the tenant's own jobs still decide wherever they say something.
 * This is additive smoothing of an empirical distribution toward a prior; built once per tenant and pass (the values
 * of both merged, at most the cell's capacity plus the tenant's 32). Immutable.
 */
public final class PooledService extends HeldService {

    private final int ownSize;

    private PooledService(int ownSize, double[] values, double[] masses) {
        super(values, masses);
        this.ownSize = ownSize;
    }

    /**
     * The tenant's estimate {@code own} pooled with {@code priorJobs} jobs spread as {@code prior}; {@code own} itself
     * when {@code priorJobs} is 0 or {@code prior} holds nothing.
     *
     * @throws IllegalArgumentException when {@code priorJobs} is negative or not a finite number, or an estimate is
     *     not one of held values
     */
    public static ServiceEstimate of(ServiceEstimate own, ServiceEstimate prior, double priorJobs) {
        if (!(priorJobs >= 0) || Double.isInfinite(priorJobs)) {
            throw new IllegalArgumentException("prior jobs must be a number >= 0, got " + priorJobs);
        }
        if (priorJobs == 0 || prior.size() == 0) {
            return own;
        }
        HeldService a = held(own);
        HeldService b = held(prior);
        double scale = priorJobs / b.totalMass();
        int n = a.values.length + b.values.length;
        double[] values = new double[n];
        double[] masses = new double[n];
        int i = 0;
        int j = 0;
        for (int k = 0; k < n; k++) {
            if (j == b.values.length || (i < a.values.length && a.values[i] <= b.values[j])) {
                values[k] = a.values[i];
                masses[k] = a.massOfFirst(i + 1) - a.massOfFirst(i);
                i++;
            } else {
                values[k] = b.values[j];
                masses[k] = scale * (b.massOfFirst(j + 1) - b.massOfFirst(j));
                j++;
            }
        }
        return new PooledService(own.size(), values, masses);
    }

    private static HeldService held(ServiceEstimate estimate) {
        if (estimate instanceof HeldService h) {
            return h;
        }
        throw new IllegalArgumentException("cannot pool " + estimate.getClass().getSimpleName());
    }

    @Override
    public double quantile(double q) {
        return quantileByMass(q);
    }

    /** The tenant's own completed jobs it holds (the pooled ones are not jobs of its own). */
    @Override
    public int size() {
        return ownSize;
    }
}
