package io.quanta.core.stage;

import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.Job;
import io.quanta.core.placement.PlacementRule;
import io.quanta.core.plan.Text;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/** Helpers for {@code nextWakeUp}: the earliest of several candidate times, and relaxation-timeout expiries. */
public final class WakeUps {

    private WakeUps() {
    }

    /** The earliest present time, or empty. */
    @SafeVarargs
    public static Optional<Instant> earliest(Optional<Instant>... times) {
        return Arrays.stream(times).filter(Objects::nonNull).flatMap(Optional::stream).min(Instant::compareTo);
    }

    /**
     * When the first running job's protection from preemption ends while some job waits (a victim becomes available
     * to it), or empty: {@code secondsLeft} gives each running job's protection left, 0 or less for none.
     */
    public static Optional<Instant> protectionEnds(ClusterSnapshot snapshot, ToDoubleFunction<Job> secondsLeft) {
        boolean waiting = false;
        double best = Double.POSITIVE_INFINITY;
        for (Job job : snapshot.jobs()) {
            if (job.isQueued()) {
                waiting = true;
            } else if (job.isRunning()) {
                double left = secondsLeft.applyAsDouble(job);
                if (left > 1e-6) {
                    best = Math.min(best, left);
                }
            }
        }
        return !waiting || Double.isInfinite(best) ? Optional.empty() : Optional.of(Text.after(snapshot.now(), best));
    }

    /** When the next queued multi-GPU job that must consolidate reaches its relaxation timeout. */
    public static Optional<Instant> relaxation(ClusterSnapshot snapshot, PlacementRule rule) {
        double best = Double.POSITIVE_INFINITY;
        for (Job job : snapshot.jobs()) {
            if (job.isQueued() && job.numGpus() > 1) {
                double left = rule.secondsToRelaxation(job);
                if (left > 0) {
                    best = Math.min(best, left);
                }
            }
        }
        return Double.isInfinite(best) ? Optional.empty() : Optional.of(Text.after(snapshot.now(), best));
    }
}
