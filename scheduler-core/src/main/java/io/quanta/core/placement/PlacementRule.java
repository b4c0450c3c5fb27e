package io.quanta.core.placement;

import io.quanta.core.model.Job;
import io.quanta.core.policy.PolicyConfig;
import io.quanta.core.policy.PolicyConfigKeys;

/**
 * When a job must be consolidated: by mode, the model's tensor-size skew and how long the job has waited
 * (Philly-style relaxation after {@code relaxationTimeoutSeconds}).
 */
public record PlacementRule(PlacementMode mode, double skewThreshold, double relaxationTimeoutSeconds) {

    /** The rule configured by {@code placement.*} keys. */
    public static PlacementRule from(PolicyConfig config) {
        return new PlacementRule(config.get(PolicyConfigKeys.PLACEMENT_STRATEGY),
                config.get(PolicyConfigKeys.SKEW_THRESHOLD), config.get(PolicyConfigKeys.RELAXATION_TIMEOUT_S));
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
        return prefersConsolidation(job) && job.waitingSeconds() < relaxationTimeoutSeconds;
    }

    /**
     * Why free GPUs may not suit the job under this rule, in words for its waiting reason: a consolidated placement
     * it must have until it relaxes, or the GPU model and memory it needs.
     */
    public String describe(Job job) {
        if (mustConsolidate(job)) {
            return "it must run on as few servers as possible (" + mode.configName() + " placement) until it has "
                    + "waited " + Math.round(relaxationTimeoutSeconds / 60) + " min, then any free GPUs will do";
        }
        return "the free GPUs are not of the model or memory it needs, or are on unusable nodes";
    }

    /** Seconds until the job's relaxation timeout from now, or a negative number when it is already relaxed. */
    public double secondsToRelaxation(Job job) {
        return prefersConsolidation(job) ? relaxationTimeoutSeconds - job.waitingSeconds() : -1;
    }
}
