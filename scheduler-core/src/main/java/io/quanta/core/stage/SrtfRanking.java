package io.quanta.core.stage;

import io.quanta.core.model.Job;
import io.quanta.core.plan.Text;
import java.util.Comparator;
import java.util.SortedMap;

/**
 * Shortest remaining GPU-time first: {@code numGpus x expected duration - attained service}; jobs without a known
 * duration count as infinitely long (after all others, FIFO among themselves). Reads the declared duration, which the
 * simulator sets to the true one: the clairvoyant {@code srtf-oracle} bound, and quanta's {@code quanta.index=declared}
 * ({@link GittinsRanking}).
 */
public final class SrtfRanking implements Ranking {

    /** Remaining GPU-seconds of a job, +infinity when its duration is unknown. */
    public static double remaining(Job job) {
        return job.expectedDurationSeconds().isPresent()
                ? job.numGpus() * job.expectedDurationSeconds().getAsDouble() - job.attainedGpuSeconds()
                : Double.POSITIVE_INFINITY;
    }

    @Override
    public Comparator<Job> order() {
        return SrtfRanking::compare;
    }

    static int compare(Job a, Job b) {
        int byRemaining = Double.compare(remaining(a), remaining(b));
        if (byRemaining != 0) {
            return byRemaining;
        }
        int bySeq = Long.compare(a.arrivalSeq(), b.arrivalSeq());
        return bySeq != 0 ? bySeq : a.id().compareTo(b.id());
    }

    @Override
    public String describe(Job job) {
        return "remaining " + Text.num(remaining(job)) + " GPU-s";
    }

    @Override
    public SortedMap<String, String> details(Job job) {
        return Text.details("remainingGpuSeconds", Text.num(remaining(job)));
    }
}
