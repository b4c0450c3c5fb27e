package io.quanta.core.policy.srtf;

import io.quanta.core.config.PolicyConfig;
import io.quanta.core.decision.Decisions;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.Job;
import io.quanta.core.plan.Placer;
import io.quanta.core.policy.AbstractPolicy;
import io.quanta.core.stage.GangScheduler;
import io.quanta.core.stage.LongerRemainingFirst;
import io.quanta.core.stage.Pass;
import io.quanta.core.stage.PreemptionPlanner;
import io.quanta.core.stage.SrtfRanking;
import io.quanta.core.stage.WakeUps;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Preemptive shortest-remaining-GPU-time-first using each job's true duration (clairvoyant). For evaluation only: it
 * bounds what a non-clairvoyant policy can reach. Remaining time only shrinks while a job runs, so a preempted job
 * never preempts its preemptor back.
 */
public final class SrtfOraclePolicy extends AbstractPolicy {

    /** Registered name. */
    public static final String NAME = "srtf-oracle";

    private final Placer placer;

    public SrtfOraclePolicy(PolicyConfig config) {
        super(NAME, config);
        this.placer = new Placer(config.placementRule());
    }

    @Override
    public Decisions decide(ClusterSnapshot snapshot) {
        Pass pass = Pass.begin(snapshot);
        SrtfRanking ranking = new SrtfRanking();
        List<Job> admitted = pass.admit(NAME);
        PreemptionPlanner planner = new PreemptionPlanner(new LongerRemainingFirst(NAME), placer, pass.running());
        new GangScheduler(NAME, placer, ranking, List.of(planner), false)
                .run(Pass.ordered(admitted, ranking), pass.alloc());
        return pass.alloc().decisions();
    }

    @Override
    public Optional<Instant> nextWakeUp(ClusterSnapshot snapshot) {
        return WakeUps.relaxation(snapshot, placer.rule());
    }
}
