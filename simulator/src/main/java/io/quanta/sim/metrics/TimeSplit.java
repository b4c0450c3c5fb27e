package io.quanta.sim.metrics;

import java.util.List;
import java.util.Optional;

/**
 * Where the average finished job's time beyond its service time at full speed went, in three parts that add up to
 * its JCT minus its duration: waiting for its first start, waiting without GPUs after it (suspended, waiting to
 * resume), and running beyond its duration (slower while packed or spread, checkpoints and restarts). Seconds, means
 * over the run's finished jobs (so the three add up to the average JCT minus the mean duration when every job
 * finished). A run read back from a result file written before the split was kept has none.
 *
 * @param firstQueue mean of first start minus submit
 * @param waitingAfterStart mean of {@link JobOutcome#waitingAfterStartSeconds}
 * @param runningBeyond mean of {@link JobOutcome#runningBeyondSeconds}
 */
public record TimeSplit(double firstQueue, double waitingAfterStart, double runningBeyond) {

    /** The split of a run's outcomes; empty when no job finished or a finished job's running time is not known. */
    public static Optional<TimeSplit> of(List<JobOutcome> outcomes) {
        int n = 0;
        double queue = 0;
        double waiting = 0;
        double beyond = 0;
        for (JobOutcome o : outcomes) {
            if (!o.finished()) {
                continue;
            }
            if (o.waitingAfterStartSeconds().isEmpty()) {
                return Optional.empty();
            }
            n++;
            queue += o.queueingDelaySeconds().getAsDouble();
            waiting += o.waitingAfterStartSeconds().getAsDouble();
            beyond += o.runningBeyondSeconds().getAsDouble();
        }
        return n == 0 ? Optional.empty() : Optional.of(new TimeSplit(queue / n, waiting / n, beyond / n));
    }

    /** The sum of the parts: the mean of JCT minus duration. */
    public double total() {
        return firstQueue + waitingAfterStart + runningBeyond;
    }
}
