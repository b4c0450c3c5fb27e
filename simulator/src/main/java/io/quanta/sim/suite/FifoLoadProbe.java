package io.quanta.sim.suite;

import io.quanta.sim.trace.Trace;
import io.quanta.sim.trace.TraceJob;
import java.util.ArrayDeque;
import java.util.List;
import java.util.PriorityQueue;

/**
 * How heavily a trace loads a cluster of a given size, measured the way the Tiresias authors' {@code fifo} with
 * {@code --scheme=count} would: strict FIFO over a pool of GPUs counted, not placed (the head of the queue starts when
 * enough GPUs are free anywhere, nothing overtakes it), jobs run for their duration, completions before arrivals at
 * the same instant. Our {@code fifo} in tiresias-compatible mode agrees with it to the second on the developers' slice
 * at 192 and 256 GPUs ({@code docs/evaluation.md}), and this costs milliseconds instead of a simulation. Jobs larger
 * than the cluster are left out (they would be rejected).
 */
public final class FifoLoadProbe {

    private FifoLoadProbe() {
    }

    /** Average queueing delay (first start minus submit, seconds) of the jobs that fit {@code gpus} GPUs. */
    public static double averageQueueingDelay(Trace trace, int gpus) {
        if (gpus < 1) {
            throw new IllegalArgumentException("gpus must be >= 1, got " + gpus);
        }
        List<TraceJob> jobs = trace.jobs();
        ArrayDeque<TraceJob> queue = new ArrayDeque<>();
        PriorityQueue<long[]> running = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
        int free = gpus;
        int next = 0;
        double delaySum = 0;
        int started = 0;
        while (next < jobs.size() || !queue.isEmpty()) {
            long arrival = next < jobs.size() ? jobs.get(next).submitSeconds() : Long.MAX_VALUE;
            long end = running.isEmpty() ? Long.MAX_VALUE : running.peek()[0];
            long now;
            if (end <= arrival) {
                now = end;
                while (!running.isEmpty() && running.peek()[0] == now) {
                    free += (int) running.poll()[1];
                }
            } else {
                now = arrival;
                while (next < jobs.size() && jobs.get(next).submitSeconds() == now) {
                    TraceJob job = jobs.get(next++);
                    if (job.numGpus() <= gpus) {
                        queue.add(job);
                    }
                }
            }
            while (!queue.isEmpty() && queue.peek().numGpus() <= free) {
                TraceJob job = queue.poll();
                free -= job.numGpus();
                delaySum += now - job.submitSeconds();
                started++;
                running.add(new long[] {now + job.durationSeconds(), job.numGpus()});
            }
        }
        return started == 0 ? 0 : delaySum / started;
    }

    /** The average queueing delay over the trace's mean service time: how many services a job waits under fifo. */
    public static double queueingRatio(Trace trace, int gpus) {
        double mean = trace.meanDurationSeconds();
        return mean > 0 ? averageQueueingDelay(trace, gpus) / mean : 0;
    }
}
