package io.quanta.core.stage;

import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.Job;
import io.quanta.core.plan.Text;
import java.time.Instant;
import java.util.Optional;

/**
 * A per-job preemption budget that refills with progress: a running job that was preempted {@code k} times before is
 * not preempted again until it has run {@code k x backoff} seconds in its current run. A job is preempted freely the
 * first time; each further preemption must be paid for by a longer run, so no job is suspended and resumed more often
 * than its progress amortises, and no job becomes unpreemptible for good (a budget counted in starts did, and long
 * jobs then held their GPUs against every short one).
 */
public final class PreemptionBackoff extends PreemptionGate {

    private final double backoffSeconds;

    /** @param backoffSeconds the run each earlier preemption adds to the protection, > 0 */
    public PreemptionBackoff(PreemptionRule inner, double backoffSeconds) {
        super(inner);
        if (!(backoffSeconds > 0)) {
            throw new IllegalArgumentException("backoffSeconds must be > 0, got " + backoffSeconds);
        }
        this.backoffSeconds = backoffSeconds;
    }

    /** Seconds of its current run the job must have before it may be preempted again. */
    private double protection(Job job) {
        return job.preemptions() * backoffSeconds;
    }

    @Override
    protected boolean admits(Job waiting, Job victim) {
        return victim.executedSeconds() >= protection(victim) - 1e-6;
    }

    @Override
    protected String reasonSuffix(Job waiting, Job victim) {
        return victim.preemptions() == 0 ? "" : "; preempted " + victim.preemptions() + " times before, ran "
                + Text.num(victim.executedSeconds()) + " s >= " + Text.num(protection(victim)) + " s";
    }

    /** When the next running job's protection ends while some job waits (a victim becomes available), or empty. */
    public static Optional<Instant> nextWakeUp(ClusterSnapshot snapshot, double backoffSeconds) {
        return WakeUps.protectionEnds(snapshot, job -> job.preemptions() * backoffSeconds - job.executedSeconds());
    }
}
