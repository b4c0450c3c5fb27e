package io.quanta.core.policy.fifo;

import io.quanta.core.config.PolicyConfig;
import io.quanta.core.decision.Decisions;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.plan.Placer;
import io.quanta.core.policy.AbstractPolicy;
import io.quanta.core.stage.FifoRanking;
import io.quanta.core.stage.GangScheduler;
import io.quanta.core.stage.Pass;
import io.quanta.core.stage.WakeUps;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Baseline like the YARN capacity scheduler: jobs start in arrival order and run to completion (no preemption);
 * when the head of the queue does not fit, nothing behind it starts (head-of-line blocking).
 */
public final class FifoPolicy extends AbstractPolicy {

    /** Registered name. */
    public static final String NAME = "fifo";

    private static final FifoRanking RANKING = new FifoRanking();

    private final Placer placer;

    public FifoPolicy(PolicyConfig config) {
        super(NAME, config);
        this.placer = new Placer(config.placementRule());
    }

    @Override
    public Decisions decide(ClusterSnapshot snapshot) {
        Pass pass = Pass.begin(snapshot);
        new GangScheduler(NAME, placer, RANKING, List.of(), true)
                .run(Pass.ordered(pass.admit(NAME), RANKING), pass.alloc());
        return pass.alloc().decisions();
    }

    @Override
    public Optional<Instant> nextWakeUp(ClusterSnapshot snapshot) {
        return WakeUps.relaxation(snapshot, placer.rule());
    }
}
