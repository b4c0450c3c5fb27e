package io.quanta.core.policy.gandiva;

import io.quanta.core.config.PolicyConfig;
import io.quanta.core.config.PolicyConfigKeys;
import io.quanta.core.decision.Decisions;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.Job;
import io.quanta.core.plan.Placer;
import io.quanta.core.policy.AbstractPolicy;
import io.quanta.core.stage.ExpiredSliceFirst;
import io.quanta.core.stage.FallbackStep;
import io.quanta.core.stage.GangScheduler;
import io.quanta.core.stage.IntrospectivePacking;
import io.quanta.core.stage.Pass;
import io.quanta.core.stage.PreemptionPlanner;
import io.quanta.core.stage.RoundRobinRanking;
import io.quanta.core.stage.TimeSlices;
import io.quanta.core.stage.WakeUps;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Gandiva: when over-subscribed, a waiting job first takes soon-free GPUs, else is packed onto a running job's GPUs
 * when memory fits, else time-slices (a running job whose quantum expired is suspended at its next minibatch
 * boundary). Introspection judges each pack and migration by measured throughput and reverts bad ones, remembering
 * interfering model pairs; idle GPUs are used to de-fragment spread multi-GPU jobs by migration.
 */
public final class GandivaPolicy extends AbstractPolicy {

    /** Registered name. */
    public static final String NAME = "gandiva";

    private final Placer placer;
    private final double quantum;
    private final IntrospectivePacking gandiva;

    public GandivaPolicy(PolicyConfig config) {
        super(NAME, config);
        this.placer = new Placer(config.placementRule());
        this.quantum = config.get(PolicyConfigKeys.QUANTUM_S);
        this.gandiva = new IntrospectivePacking(NAME, config, placer);
    }

    @Override
    public Decisions decide(ClusterSnapshot snapshot) {
        Pass pass = Pass.begin(snapshot);
        List<Job> admitted = pass.admit(NAME);
        gandiva.introspect(pass);
        RoundRobinRanking ranking = new RoundRobinRanking();
        List<FallbackStep> fallbacks = new ArrayList<>();
        fallbacks.add(PreemptionPlanner.earmarkSoonFree(placer));
        gandiva.packer(pass).ifPresent(fallbacks::add);
        fallbacks.add(new PreemptionPlanner(new ExpiredSliceFirst(NAME, quantum), placer, pass.running()));
        List<Job> left = new GangScheduler(NAME, placer, ranking, fallbacks, false)
                .run(Pass.ordered(admitted, ranking), pass.alloc());
        gandiva.defragment(pass, left);
        return pass.alloc().decisions();
    }

    @Override
    public Optional<Instant> nextWakeUp(ClusterSnapshot snapshot) {
        return WakeUps.earliest(TimeSlices.nextEnd(snapshot, quantum), gandiva.nextWakeUp(snapshot),
                WakeUps.relaxation(snapshot, placer.rule()));
    }
}
