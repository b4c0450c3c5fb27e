package io.quanta.core.policy.tiresias;

import io.quanta.core.config.PolicyConfig;
import io.quanta.core.config.PolicyConfigKeys;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.ServiceDistribution;
import io.quanta.core.stage.GittinsRanking;
import io.quanta.core.stage.LasRanking;
import io.quanta.core.stage.Ranking;

/**
 * Tiresias discretised 2D-Gittins: the same queues and preemption as {@code tiresias-las}, but inside a queue jobs
 * are ordered by their 2D-Gittins index from the learned distribution of completed jobs' service (the configured
 * prior until {@code gittins.min-samples} jobs have completed). Look-ahead = distance to the next queue threshold.
 */
public final class TiresiasGittinsPolicy extends MultiLevelQueuePolicy {

    /** Registered name. */
    public static final String NAME = "tiresias-gittins";

    private final ServiceDistribution prior;
    private final int minSamples;

    public TiresiasGittinsPolicy(PolicyConfig config) {
        super(NAME, config);
        double[] values = config.get(PolicyConfigKeys.GITTINS_PRIOR);
        this.prior = ServiceDistribution.of(Math.max(values.length, 1), config.get(PolicyConfigKeys.GITTINS_SEED),
                values);
        this.minSamples = config.get(PolicyConfigKeys.GITTINS_MIN_SAMPLES);
    }

    /** The distribution the index uses for this snapshot: the learned one once large enough, else the prior. */
    public ServiceDistribution distributionFor(ClusterSnapshot snapshot) {
        return snapshot.serviceDistribution().size() >= minSamples ? snapshot.serviceDistribution() : prior;
    }

    @Override
    protected Ranking ranking(ClusterSnapshot snapshot, LasRanking levels) {
        return new GittinsRanking(levels, queues(), distributionFor(snapshot));
    }
}
