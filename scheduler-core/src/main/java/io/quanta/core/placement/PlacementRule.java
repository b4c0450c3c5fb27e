package io.quanta.core.placement;

import io.quanta.core.model.Job;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * When a job must be consolidated: by mode, the model's tensor-size skew and how long the job has waited
 * (Philly-style relaxation after {@code relaxationTimeoutSeconds}). With {@code patiencePerRunSecond > 0} a job that
 * already ran waits longer: up to that many seconds per second it has run so far (attained GPU-seconds over its
 * GPUs), if that is more than the timeout; a long run is likely to go on long, and spread it would be slowed for all
 * of it.
 */
public record PlacementRule(PlacementMode mode, double skewThreshold, double relaxationTimeoutSeconds,
                            double patiencePerRunSecond) {

    public PlacementRule {
        if (!(patiencePerRunSecond >= 0)) {
            throw new IllegalArgumentException("patiencePerRunSecond must be >= 0, got " + patiencePerRunSecond);
        }
    }

    /** A rule without run-scaled patience. */
    public PlacementRule(PlacementMode mode, double skewThreshold, double relaxationTimeoutSeconds) {
        this(mode, skewThreshold, relaxationTimeoutSeconds, 0);
    }

    /** True when the job's model wants consolidation under this mode, whatever it waited. */
    public boolean prefersConsolidation(Job job) {
        return switch (mode) {
            case CONSOLIDATED -> true;
            case SKEW_AWARE -> job.profile().tensorSizeSkew() >= skewThreshold;
            case ANYWHERE -> false;
        };
    }

    /** True when the job may only take a consolidated placement now (it prefers one and has not waited too long). */
    public boolean mustConsolidate(Job job) {
        return prefersConsolidation(job) && job.waitingSeconds() < relaxationTimeoutOf(job);
    }

    /** How long this job waits for a consolidated placement: the timeout, or longer for a job that ran long. */
    public double relaxationTimeoutOf(Job job) {
        if (patiencePerRunSecond == 0 || job.numGpus() < 1) {
            return relaxationTimeoutSeconds;
        }
        return Math.max(relaxationTimeoutSeconds, patiencePerRunSecond * job.attainedGpuSeconds() / job.numGpus());
    }

    /**
     * Why free GPUs may not suit the job under this rule, in words for its waiting reason: a consolidated placement
     * it must have until it relaxes, or the GPU model and memory it needs.
     */
    public String describe(Job job, Instant now) {
        if (mustConsolidate(job)) {
            // the instant, not the minutes left: the reason stays the same from pass to pass, so it is published once
            Instant relaxes = now.plusMillis(Math.round(secondsToRelaxation(job) * 1000)).truncatedTo(ChronoUnit.SECONDS);
            return "it must run on as few servers as possible (" + mode.configName() + " placement) until it has "
                    + "waited " + Math.round(relaxationTimeoutOf(job) / 60) + " min, at " + relaxes
                    + ", then any free GPUs will do";
        }
        return "the free GPUs are not of the model or memory it needs, or are on unusable nodes";
    }

    /** Seconds until the job's relaxation timeout from now, or a negative number when it is already relaxed. */
    public double secondsToRelaxation(Job job) {
        return prefersConsolidation(job) ? relaxationTimeoutOf(job) - job.waitingSeconds() : -1;
    }
}
