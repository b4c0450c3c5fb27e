package io.quanta.sim.suite;

import io.quanta.sim.trace.TraceJob;
import java.util.Arrays;
import java.util.List;

/**
 * Bound (3) of {@link AverageJctBound}: {@code sum C_j >= sum M_j + sum s_j / 2}, with {@code sum M_j} (the jobs' mean
 * busy times) bounded from below over every schedule of one pool of {@code C} GPU-seconds per second in which job
 * {@code j} needs {@code u_j w_j} GPU-seconds from {@code r_j} on and receives at most {@code g_j} work per second.
 * <p><b>Weak duality.</b> For any price {@code p(t) >= 0} of the pool's GPU-seconds,
 * <pre>
 *   sum M_j  >=  sum over j of phi_j(p)  -  C x integral of p(t) dt,
 *   phi_j(p)  =  least, over work rates 0 &lt;= x(t) &lt;= g_j from r_j on with integral w_j,
 *                of the integral of (t / w_j + u_j p(t)) x(t) dt,
 * </pre>
 * because a schedule's {@code sum M_j} is {@code sum over j of the integral of (t / w_j) x_j(t) dt} and it adds
 * {@code integral of p(t) (sum u_j x_j(t) - C) dt <= 0}. {@code phi_j} is solved exactly: the job runs at {@code g_j}
 * during the {@code s_j} seconds of least price {@code t / w_j + u_j p(t)}, all the times whose price is under a
 * threshold (where {@code p} is constant the earliest times are the cheapest), found exactly by sweeping the prices at
 * which each stretch's cheap part begins and ends.
 * <p><b>Prices.</b> {@code p} is constant on {@value #INTERVALS} stretches, equal ones from the first submission up
 * to 1.2 times the last {@code r_j + s_j} after it, and 0 on the open-ended last one; it starts at 0 (which gives the
 * floor {@code sum (r_j + s_j)}) and takes {@value #ROUNDS} projected subgradient steps (the pool's use minus
 * {@code C} per stretch, {@value #STEP} of Polyak's step towards a target: the {@link IdealSchedule}, a schedule of
 * the pool). The best value seen is kept.
 * Any prices give a valid bound; the steps only make it tighter (they stop short of the relaxation's optimum: 1.58
 * where it is 5 / 3 in {@code AverageJctBoundTest}). Pure and deterministic; about a second for 2,000 jobs.
 */
final class CappedRelaxation {

    /** Stretches of constant price. */
    static final int INTERVALS = 800;
    /** Subgradient steps. */
    static final int ROUNDS = 200;
    /** Share of Polyak's step taken: smaller steps climbed higher on the suite's inputs than 0.5 or 1. */
    static final double STEP = 0.1;

    private final List<TraceJob> jobs;
    private final double[] gpuSecondsPerWork;
    private final int gpus;
    private final double stretch;
    /** The first submission: times are taken from it (the bound on the average JCT does not depend on it). */
    private final double origin;

    private CappedRelaxation(List<TraceJob> jobs, double[] gpuSecondsPerWork, int gpus, double stretch,
                             double origin) {
        this.jobs = jobs;
        this.gpuSecondsPerWork = gpuSecondsPerWork;
        this.gpus = gpus;
        this.stretch = stretch;
        this.origin = origin;
    }

    /**
     * The bound on the average JCT, seconds, of a non-empty job list; {@code targetAverageJct} is the average JCT of a
     * schedule of the pool (it only steers the steps).
     */
    static double averageJct(List<TraceJob> jobs, int gpus, double[] gpuSecondsPerWork, double targetAverageJct) {
        int n = jobs.size();
        // from the first submission on: a trace whose times start late (a file not rebased to 0) would spend the
        // stretches of constant price on the time before it and lose the digits of its times' differences
        double origin = jobs.stream().mapToDouble(TraceJob::submitSeconds).min().orElse(0);
        double end = 0;
        double submits = 0;
        double halves = 0;
        for (TraceJob j : jobs) {
            end = Math.max(end, j.submitSeconds() - origin + j.durationSeconds());
            submits += j.submitSeconds() - origin;
            halves += j.durationSeconds() / 2.0;
        }
        CappedRelaxation relaxation = new CappedRelaxation(jobs, gpuSecondsPerWork, gpus,
                1.2 * end / (INTERVALS - 1), origin);
        double target = targetAverageJct * n + submits - halves;
        double[] price = new double[INTERVALS];
        double best = Double.NEGATIVE_INFINITY;
        for (int round = 0; round < ROUNDS; round++) {
            double[] used = new double[INTERVALS];
            double value = relaxation.dual(price, used);
            best = Math.max(best, value);
            double[] step = new double[INTERVALS];
            double norm = 0;
            for (int k = 0; k < INTERVALS - 1; k++) {
                step[k] = used[k] - gpus * relaxation.stretch;
                if (price[k] <= 0 && step[k] < 0) {
                    step[k] = 0;
                }
                norm += step[k] * step[k];
            }
            if (norm == 0 || value >= target) {
                break;
            }
            double size = STEP * (target - value) / norm;
            for (int k = 0; k < INTERVALS - 1; k++) {
                price[k] = Math.max(0, price[k] + size * step[k]);
            }
        }
        return (best + halves - submits) / n;
    }

    /** The dual value at {@code price}; adds the GPU-seconds that the jobs' cheapest rates use to {@code used}. */
    private double dual(double[] price, double[] used) {
        double[] highestFrom = new double[INTERVALS];
        for (int k = INTERVALS - 2; k >= 0; k--) {
            highestFrom[k] = Math.max(price[k], highestFrom[k + 1]);
        }
        double value = 0;
        for (int j = 0; j < jobs.size(); j++) {
            value += cheapest(j, price, highestFrom, used);
        }
        for (int k = 0; k < INTERVALS - 1; k++) {
            value -= gpus * price[k] * stretch;
        }
        return value;
    }

    /** {@code phi_j(price)}: the price of the job's cheapest {@code s_j} seconds, times {@code g_j}. */
    private double cheapest(int j, double[] price, double[] highestFrom, double[] used) {
        TraceJob job = jobs.get(j);
        double r = job.submitSeconds() - origin;
        double s = job.durationSeconds();
        double w = job.gpuSeconds();
        double u = gpuSecondsPerWork[j];
        int first = (int) Math.min(INTERVALS - 1, Math.floor(r / stretch));
        double ceiling = (r + s) / w + u * highestFrom[first]; // every time in [r, r + s] costs at most this
        int last = first;
        while (last + 1 < INTERVALS && (last + 1) * stretch <= ceiling * w) {
            last++;
        }
        int count = last - first + 1;
        double[] starts = new double[count]; // the price where each stretch's cheap part begins, and ends
        double[] ends = new double[count];
        for (int k = first; k <= last; k++) {
            starts[k - first] = from(k, r) / w + u * price[k];
            ends[k - first] = starts[k - first] + (to(k) - from(k, r)) / w;
        }
        double threshold = threshold(starts, ends, s, w);
        double cost = 0;
        double time = 0;
        for (int k = first; k <= last; k++) {
            double a = from(k, r);
            double length = Math.max(0, Math.min(to(k) - a, (threshold - u * price[k]) * w - a));
            double b = a + length;
            cost += (b * b - a * a) / (2 * w) + u * price[k] * length;
            used[k] += u * job.numGpus() * length;
            time += length;
        }
        // time differs from s by rounding only; charge the difference at the threshold, the price at the margin
        return job.numGpus() * (cost - threshold * (time - s));
    }

    /**
     * The price under which there are {@code s} seconds: the cheap part of a stretch grows by {@code w} seconds per
     * unit of price from its start price to its end price.
     */
    private static double threshold(double[] starts, double[] ends, double s, double w) {
        Arrays.sort(starts);
        Arrays.sort(ends);
        double at = starts[0];
        double seconds = 0;
        int open = 0;
        int i = 0;
        int e = 0;
        while (e < ends.length) {
            double next = i < starts.length ? Math.min(starts[i], ends[e]) : ends[e];
            if (open > 0) {
                if (seconds + open * w * (next - at) >= s) {
                    return at + (s - seconds) / (open * w);
                }
                seconds += open * w * (next - at);
            }
            at = next;
            if (i < starts.length && starts[i] <= ends[e]) {
                open++;
                i++;
            } else {
                open--;
                e++;
            }
        }
        return at; // every stretch used up: short of s by rounding only
    }

    /** Where stretch {@code k} begins for a job submitted at {@code r}. */
    private double from(int k, double r) {
        return Math.max(k * stretch, r);
    }

    /** Where stretch {@code k} ends; the last is open-ended. */
    private double to(int k) {
        return k == INTERVALS - 1 ? Double.POSITIVE_INFINITY : (k + 1) * stretch;
    }
}
