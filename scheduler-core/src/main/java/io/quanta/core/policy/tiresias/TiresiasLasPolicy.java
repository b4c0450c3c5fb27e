package io.quanta.core.policy.tiresias;

import io.quanta.core.config.PolicyConfig;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.stage.LasRanking;
import io.quanta.core.stage.Ranking;

/**
 * Tiresias 2D-LAS discretised into K queues by attained GPU-seconds (default thresholds 3,250 and 7,200): jobs in
 * higher queues run first and preempt running jobs of lower queues, FIFO inside a queue (peers never preempt each
 * other), demotion when a running job crosses its threshold, optional starvation knob (off by default, like the
 * authors' dlas-gpu).
 */
public final class TiresiasLasPolicy extends MultiLevelQueuePolicy {

    /** Registered name. */
    public static final String NAME = "tiresias-las";

    public TiresiasLasPolicy(PolicyConfig config) {
        super(NAME, config);
    }

    @Override
    protected Ranking ranking(ClusterSnapshot snapshot, LasRanking levels) {
        return levels;
    }
}
