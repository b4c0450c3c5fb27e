package io.quanta.core.model;

import java.util.Arrays;

/**
 * The distribution of jobs' total service (GPU-seconds) estimated from the completed jobs and the jobs still alive,
 * each of which has attained some service and will attain at least that much: the Kaplan-Meier product-limit
 * estimate, with the alive jobs as right-censored observations. Immutable.
 *
 * <p>Why: the completed jobs alone are a biased sample early in a cell's life and on long windows. Short jobs finish
 * first, so while the long ones still run the completed jobs' quantiles lag far behind the jobs' own (on one Philly
 * window the 0.95 quantile of the completed jobs was 1,579 GPU-s where that of the submitted jobs was 498,928), and a
 * running job that has outlived every completed job gets a Gittins index of 0, as if it could never finish. The
 * product-limit estimate counts each alive job as "at least its attained service".
 *
 * <p>The completed jobs come from {@link ServiceDistribution}'s bounded reservoir: each held sample stands for
 * {@code observed / size} completed jobs, each alive job for itself. When the largest observation is an alive job the
 * estimate leaves mass above every completed job, which it cannot place; as in Efron's redistribute-to-the-right
 * convention that mass is put at the largest alive job's attained service (a lower bound of where it lies). Written
 * here because no library in the build computes a weighted product-limit estimate with this tail rule, and the
 * scheduler core takes no dependencies.
 */
public final class CensoredService extends HeldService {

    private final int completedHeld;

    private CensoredService(int completedHeld, double[] values, double[] mass) {
        super(values, mass);
        this.completedHeld = completedHeld;
    }

    /**
     * The product-limit estimate from the completed jobs' sample and the attained service of the jobs still alive
     * (values of 0 or less say nothing and are ignored; so are jobs not yet started).
     */
    public static CensoredService of(ServiceDistribution completed, double[] aliveAttained) {
        double[] events = completed.samples();
        double eventWeight = events.length == 0 ? 0 : (double) completed.observed() / events.length;
        double[] censored = Arrays.stream(aliveAttained).filter(a -> a > 0 && Double.isFinite(a)).sorted().toArray();
        double atRisk = eventWeight * events.length + censored.length;
        double[] values = new double[events.length + 1];
        double[] mass = new double[events.length + 1];
        int n = 0;
        double survival = 1;
        int e = 0;
        int c = 0;
        while (e < events.length || c < censored.length) {
            double t = e < events.length && (c >= censored.length || events[e] <= censored[c]) ? events[e]
                    : censored[c];
            int ended = 0;
            while (e < events.length && events[e] == t) {
                ended++;
                e++;
            }
            int alive = 0;
            while (c < censored.length && censored[c] == t) {
                alive++;
                c++;
            }
            if (ended > 0 && atRisk > 0) {
                double d = ended * eventWeight;
                double m = survival * d / atRisk;
                survival -= m;
                values[n] = t;
                mass[n++] = m;
            }
            atRisk -= ended * eventWeight + alive;
        }
        if (survival > SLACK && censored.length > 0) {
            double tail = censored[censored.length - 1];
            if (n > 0 && values[n - 1] == tail) {
                mass[n - 1] += survival;
            } else {
                values[n] = tail;
                mass[n++] = survival;
            }
        }
        return new CensoredService(events.length, Arrays.copyOf(values, n), Arrays.copyOf(mass, n));
    }

    @Override
    public double quantile(double q) {
        return quantileByMass(q);
    }

    @Override
    public int size() {
        return completedHeld;
    }

    /** The values that carry mass, ascending (a copy). */
    public double[] values() {
        return values.clone();
    }

    /** Each value's share of the mass, in the order of {@link #values()}. */
    public double[] masses() {
        double[] out = new double[values.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = (massOfFirst(i + 1) - massOfFirst(i)) / totalMass();
        }
        return out;
    }
}
