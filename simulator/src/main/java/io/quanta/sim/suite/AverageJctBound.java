package io.quanta.sim.suite;

import io.quanta.sim.trace.Trace;
import io.quanta.sim.trace.TraceJob;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A lower bound on the average JCT of every schedule of a trace on {@code C} GPUs, computed from the trace alone.
 * <p><b>Relaxation.</b> Job {@code j} arrives at {@code r_j}, holds {@code g_j} GPUs and needs {@code s_j} seconds
 * at full speed; its work is {@code w_j = g_j s_j}. In the realistic models a job runs at most at full speed
 * (spreading, interference, suspends and resumes only take time away, a resume restarts from no more work than was
 * done), so it receives at most {@code g_j} GPU-seconds of work per second and {@code C_j >= r_j + s_j}. Each unit of
 * its work takes at least {@code u_j <= 1} GPU-seconds of the cluster's {@code C} per second: {@code u_j = 1} when
 * packing never gains (a GPU serves at most one GPU-second of work per second, {@code realistic-no-pack-gain}), else
 * 1 over the most one GPU gives in a pack with a job of {@code j}'s model family ({@link PackingGain}; under
 * {@code realistic} 1 / 1.62 for a language model, 1 / 1.5 for ResNet, 1 for the rest). A real schedule, read as "job
 * j received {@code g_j} times its furthest progress" (work lost to a checkpoint counts once), is then a preemptive
 * schedule of one pool of {@code C} GPU-seconds per second in which job {@code j} needs {@code u_j w_j} from
 * {@code r_j} on, receives at most {@code g_j} work per second, and completes no later than in the real schedule. The
 * bound is the largest of three sums, each at most {@code sum C_j} of every such schedule:
 * <ol>
 *   <li><b>Order statistics.</b> Let {@code c_(1) <= ... <= c_(n)} be the completion times of preemptive SRPT on the
 *       pool (sizes {@code u_j w_j}, no per-job limit) and {@code e_(1) <= ... <= e_(n)} the sorted
 *       {@code r_j + s_j}. Any schedule's {@code k}-th completion {@code C_(k)} is at least both: {@code e_(k)},
 *       since the {@code k} jobs done by then each have {@code r_j + s_j <= C_(k)}; and {@code c_(k)}, since SRPT
 *       has completed at every instant at least as many jobs as any schedule of the pool. Proof: let {@code P(k, t)}
 *       be the sum of the {@code k} smallest remaining sizes of the released jobs (0 for a finished one);
 *       {@code P_SRPT(k, t) <= P_S(k, t)} for all {@code k} and {@code t}, by induction over time: an arrival of size
 *       {@code x} makes each sum {@code min(P(k), P(k-1) + x)}, monotone in the old sums; between events {@code S}
 *       lowers any sum by at most {@code C} per second, while SRPT, working on its smallest non-zero size, lowers by
 *       exactly {@code C} every sum that is not 0. A schedule with {@code m} finished jobs has {@code P_S(m, t) = 0},
 *       so SRPT has at least {@code m}. Hence {@code sum C_j >= sum over k of max(c_(k), e_(k))}, at least the floor
 *       {@code sum (r_j + s_j)}.</li>
 *   <li><b>Mean busy time</b> (Eastman, Even and Isaacs' bound for parallel machines, here with release dates). Let
 *       {@code M_j} be the mean time at which job {@code j}'s work is done. Its work lies before {@code C_j} at a
 *       rate of at most {@code g_j}, so {@code M_j <= C_j - s_j / 2}. Without the per-job limit, {@code sum M_j} is
 *       least when the pool always works on the released unfinished job of least size {@code u_j w_j} (not
 *       remaining: preemptive SPT). Proof by exchange: if a schedule works on {@code b} (or idles) at {@code t}
 *       while a released unfinished {@code a} of smaller size is worked on at {@code t' > t}, swapping {@code d}
 *       GPU-seconds changes {@code sum M_j} by {@code (t' - t) d (1 / size_b - 1 / size_a) < 0}. Hence
 *       {@code sum C_j >= sum over j of (M_j(SPT) + s_j / 2)}.</li>
 *   <li><b>Mean busy time with the per-job limit</b> ({@link CappedRelaxation}): the least {@code sum M_j} over
 *       schedules of the pool in which job {@code j} also receives at most {@code g_j} work per second, bounded
 *       from below by Lagrangian duality; it sees that jobs which arrive together wait when their GPUs add up to
 *       more than the pool, which the first two do not.</li>
 * </ol>
 * Subtracting {@code sum r_j} and dividing by {@code n} gives the average JCT bound. It still lets a job run on any
 * share of its {@code g_j} GPUs (gangs are not all or nothing), ignores placement, fragmentation and switch costs, and
 * counts every GPU at its best pack's speed, so it is below what any scheduler reaches. It bounds the mean over all
 * jobs: a run that leaves jobs unfinished averages only its finished ones. With {@code u_j = 1} for every job it
 * assumes that packing never gains, so it is strict under {@code realistic-no-pack-gain} but not under
 * {@code realistic}, where two language models packed on a GPU do 1.62 GPU-seconds of work per second;
 * {@link InputBounds} gives each job the {@code u_j} of the model, which keeps it strict under {@code realistic} as
 * well, for packs as the policies make them with at most {@code placement.max-jobs-per-gpu} (2) jobs on a GPU
 * ({@link PackingGain}).
 */
public final class AverageJctBound {

    private AverageJctBound() {
    }

    /**
     * The lower bound on the average JCT, seconds, of any schedule on {@code gpus} GPUs where a unit of job
     * {@code j}'s work takes at least {@code gpuSecondsPerWork[j]} (in (0, 1], by trace index) GPU-seconds; NaN for an
     * empty trace.
     */
    public static double averageJct(Trace trace, int gpus, double[] gpuSecondsPerWork) {
        return averageJct(trace, gpus, gpuSecondsPerWork, IdealSchedule.averageJct(trace, gpus));
    }

    /**
     * The same, given {@link IdealSchedule}'s average JCT of the trace on {@code gpus} GPUs (it steers bound (3); a
     * caller that needs it anyway computes it once).
     */
    public static double averageJct(Trace trace, int gpus, double[] gpuSecondsPerWork, double idealAverageJct) {
        check(trace, gpus, gpuSecondsPerWork);
        double bound = Math.max(orderStatisticsAverageJct(trace, gpus, gpuSecondsPerWork),
                meanBusyTimeAverageJct(trace, gpus, gpuSecondsPerWork));
        if (trace.size() == 0) {
            return bound;
        }
        return Math.max(bound, CappedRelaxation.averageJct(trace.jobs(), gpus, gpuSecondsPerWork, idealAverageJct));
    }

    /** The same bound when every GPU gives at most {@code capacityFactor} GPU-seconds of work per second. */
    public static double averageJct(Trace trace, int gpus, double capacityFactor) {
        return averageJct(trace, gpus, uniform(trace, capacityFactor));
    }

    /** {@code 1 / capacityFactor} for every job: each GPU gives at most {@code capacityFactor} work per second. */
    public static double[] uniform(Trace trace, double capacityFactor) {
        if (!(capacityFactor >= 1)) {
            throw new IllegalArgumentException("capacity factor must be >= 1, got " + capacityFactor);
        }
        double[] u = new double[trace.size()];
        Arrays.fill(u, 1 / capacityFactor);
        return u;
    }

    /** The order-statistics bound (1) alone. */
    public static double orderStatisticsAverageJct(Trace trace, int gpus, double[] gpuSecondsPerWork) {
        check(trace, gpus, gpuSecondsPerWork);
        double[] c = OneMachine.run(trace.jobs(), sizes(trace, gpuSecondsPerWork), gpus, true).completion();
        Arrays.sort(c);
        double[] e = trace.jobs().stream().mapToDouble(j -> (double) j.submitSeconds() + j.durationSeconds()).sorted()
                .toArray();
        double sum = 0;
        for (int k = 0; k < c.length; k++) {
            sum += Math.max(c[k], e[k]);
        }
        return average(trace, sum);
    }

    /** The mean-busy-time bound (2) alone. */
    public static double meanBusyTimeAverageJct(Trace trace, int gpus, double[] gpuSecondsPerWork) {
        check(trace, gpus, gpuSecondsPerWork);
        double[] size = sizes(trace, gpuSecondsPerWork);
        double[] moment = OneMachine.run(trace.jobs(), size, gpus, false).moment();
        double sum = 0;
        for (int j = 0; j < size.length; j++) {
            sum += moment[j] / size[j] + trace.jobs().get(j).durationSeconds() / 2.0;
        }
        return average(trace, sum);
    }

    /**
     * A preemptive schedule of one pool of {@code speed} GPU-seconds per second, job {@code j} needing
     * {@code size[j]} from its submit time on, the pool always on the released unfinished job of least remaining
     * size (SRPT) or of least size (preemptive SPT), ties by trace order.
     *
     * @param completion each job's completion time, by trace index
     * @param moment each job's integral of {@code t} times the GPU-seconds it receives per second, by trace index (its
     *     mean busy time times its size)
     */
    record OneMachine(double[] completion, double[] moment) {

        static OneMachine run(List<TraceJob> jobs, double[] size, double speed, boolean byRemaining) {
            int n = jobs.size();
            double[] left = new double[n];
            double[] completion = new double[n];
            double[] moment = new double[n];
            Comparator<Integer> order = byRemaining ? Comparator.comparingDouble(i -> left[i])
                    : Comparator.comparingDouble(i -> size[i]);
            PriorityQueue<Integer> queue = new PriorityQueue<>(order.thenComparingInt(i -> i));
            double t = 0;
            int next = 0;
            int done = 0;
            while (done < n) {
                if (queue.isEmpty()) {
                    t = Math.max(t, jobs.get(next).submitSeconds());
                }
                while (next < n && jobs.get(next).submitSeconds() <= t) {
                    left[next] = size[next];
                    queue.add(next++);
                }
                int head = queue.poll();
                double finish = t + left[head] / speed;
                boolean completes = next >= n || finish <= jobs.get(next).submitSeconds();
                double end = completes ? finish : jobs.get(next).submitSeconds();
                // the span itself, not end - t: late in a long trace a short span is below the resolution of t (a
                // double near 1e9 s holds steps of about 1e-7 s), and end * end - t * t then counts a whole step
                double span = completes ? left[head] / speed : end - t;
                moment[head] += speed * span * (t + span / 2);
                left[head] -= span * speed;
                if (completes) {
                    completion[head] = end;
                    done++;
                } else {
                    queue.add(head);
                }
                t = end;
            }
            return new OneMachine(completion, moment);
        }
    }

    static double[] sizes(Trace trace, double[] gpuSecondsPerWork) {
        double[] size = new double[trace.size()];
        for (int j = 0; j < size.length; j++) {
            size[j] = gpuSecondsPerWork[j] * trace.jobs().get(j).gpuSeconds();
        }
        return size;
    }

    private static void check(Trace trace, int gpus, double[] gpuSecondsPerWork) {
        if (gpus < 1) {
            throw new IllegalArgumentException("need gpus >= 1, got " + gpus);
        }
        if (gpuSecondsPerWork.length != trace.size()) {
            throw new IllegalArgumentException("need one GPU-seconds per work figure per job, got "
                    + gpuSecondsPerWork.length + " for " + trace.size() + " jobs");
        }
        for (double u : gpuSecondsPerWork) {
            if (!(u > 0 && u <= 1)) {
                throw new IllegalArgumentException("GPU-seconds per unit of work must be in (0, 1], got " + u);
            }
        }
        IdealSchedule.requireFits(trace, gpus);
    }

    static double average(Trace trace, double completionSum) {
        if (trace.size() == 0) {
            return Double.NaN;
        }
        double submitSum = trace.jobs().stream().mapToDouble(TraceJob::submitSeconds).sum();
        return (completionSum - submitSum) / trace.size();
    }
}
