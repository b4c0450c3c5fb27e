package io.quanta.core.stage;

import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.Job;
import io.quanta.core.plan.Text;
import java.time.Instant;
import java.util.Optional;

/** When the next running job's time slice ends, which matters only while some job is waiting. */
public final class TimeSlices {

    private TimeSlices() {
    }

    public static Optional<Instant> nextEnd(ClusterSnapshot snapshot, double quantumSeconds) {
        boolean anyWaiting = snapshot.jobs().stream().anyMatch(Job::isQueued);
        if (!anyWaiting) {
            return Optional.empty();
        }
        double best = Double.POSITIVE_INFINITY;
        for (Job job : snapshot.jobs()) {
            double left = quantumSeconds - job.executedSeconds();
            if (job.isRunning() && left > 1e-6) {
                best = Math.min(best, left);
            }
        }
        return Double.isInfinite(best) ? Optional.empty() : Optional.of(Text.after(snapshot.now(), best));
    }
}
