package io.quanta.sim.suite;

import io.quanta.sim.trace.Trace;
import io.quanta.sim.trace.TraceJob;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * An idealised clairvoyant schedule, a reference and not a bound: fluid and preemptive, with no switch cost, no
 * placement (GPUs are counted, not placed) and no packing. At every arrival and completion the running set is chosen
 * anew: the waiting and running jobs by shortest remaining duration first (ties by job id), each taken when its whole
 * gang of {@code g_j} GPUs fits in the GPUs still free, skipped otherwise; every running job progresses at full
 * speed. Durations and submit times are whole seconds, so every event falls on a whole second and the schedule is
 * exact. Its average JCT is what a clairvoyant scheduler achieves without fragmentation, locality slowdown or switch
 * costs.
 */
public final class IdealSchedule {

    private IdealSchedule() {
    }

    /** The schedule's average JCT on {@code gpus} GPUs, seconds; NaN for an empty trace. */
    public static double averageJct(Trace trace, int gpus) {
        long[] done = completions(trace, gpus);
        double sum = 0;
        for (int i = 0; i < done.length; i++) {
            sum += done[i] - trace.jobs().get(i).submitSeconds();
        }
        return done.length == 0 ? Double.NaN : sum / done.length;
    }

    /** Each job's completion time, seconds, in trace order. */
    static long[] completions(Trace trace, int gpus) {
        requireFits(trace, gpus);
        List<TraceJob> jobs = trace.jobs();
        int n = jobs.size();
        long[] remaining = jobs.stream().mapToLong(TraceJob::durationSeconds).toArray();
        long[] done = new long[n];
        Comparator<Integer> order = Comparator.<Integer>comparingLong(i -> remaining[i])
                .thenComparing(i -> jobs.get(i).jobId());
        List<Integer> active = new ArrayList<>();
        List<Integer> running = new ArrayList<>();
        long t = 0;
        int next = 0;
        int finished = 0;
        while (finished < n) {
            if (active.isEmpty()) {
                t = Math.max(t, jobs.get(next).submitSeconds());
            }
            while (next < n && jobs.get(next).submitSeconds() <= t) {
                active.add(next++);
            }
            active.sort(order);
            running.clear();
            int free = gpus;
            long step = next < n ? jobs.get(next).submitSeconds() - t : Long.MAX_VALUE;
            for (int i : active) {
                if (jobs.get(i).numGpus() <= free) {
                    free -= jobs.get(i).numGpus();
                    running.add(i);
                    step = Math.min(step, remaining[i]);
                }
            }
            t += step;
            for (int i : running) {
                remaining[i] -= step;
                if (remaining[i] == 0) {
                    done[i] = t;
                    finished++;
                }
            }
            active.removeIf(i -> remaining[i] == 0);
        }
        return done;
    }

    /** Rejects a trace with a job larger than the cluster: no schedule could ever run it. */
    static void requireFits(Trace trace, int gpus) {
        if (trace.maxGpus() > gpus) {
            throw new IllegalArgumentException("trace " + trace.name() + " has a job of " + trace.maxGpus()
                    + " GPUs, more than the " + gpus + " GPUs of the cluster");
        }
    }
}
