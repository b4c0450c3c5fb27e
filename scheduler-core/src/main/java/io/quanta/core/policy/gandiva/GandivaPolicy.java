package io.quanta.core.policy.gandiva;

import io.quanta.core.decision.Decisions;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.Job;
import io.quanta.core.model.JobState;
import io.quanta.core.placement.PlacementRule;
import io.quanta.core.plan.Placer;
import io.quanta.core.policy.AbstractPolicy;
import io.quanta.core.policy.PolicyConfig;
import io.quanta.core.policy.PolicyConfigKeys;
import io.quanta.core.stage.Admission;
import io.quanta.core.stage.Defragmenter;
import io.quanta.core.stage.ExpiredSliceFirst;
import io.quanta.core.stage.FallbackStep;
import io.quanta.core.stage.GangScheduler;
import io.quanta.core.stage.Introspector;
import io.quanta.core.stage.Packer;
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
    private final Introspector introspector;
    private final boolean packing;
    private final int maxJobsPerGpu;
    private final Defragmenter defragmenter;
    private final boolean migration;

    public GandivaPolicy(PolicyConfig config) {
        super(NAME, config);
        this.placer = new Placer(PlacementRule.from(config));
        this.quantum = config.get(PolicyConfigKeys.QUANTUM_S);
        this.introspector = new Introspector(NAME, config.get(PolicyConfigKeys.INTROSPECTION_WINDOW_S),
                config.get(PolicyConfigKeys.INTROSPECTION_MIN_GAIN));
        this.packing = config.get(PolicyConfigKeys.PACKING);
        this.maxJobsPerGpu = config.get(PolicyConfigKeys.MAX_JOBS_PER_GPU);
        this.migration = config.get(PolicyConfigKeys.MIGRATION);
        this.defragmenter = new Defragmenter(NAME, placer, config.get(PolicyConfigKeys.MIGRATIONS_PER_PASS));
    }

    @Override
    public Decisions decide(ClusterSnapshot snapshot) {
        Pass pass = Pass.begin(snapshot);
        List<Job> admitted = new Admission(NAME).admit(pass.queued(), pass.alloc());
        introspector.apply(pass.running(), pass.alloc(), placer);
        RoundRobinRanking ranking = new RoundRobinRanking();
        List<FallbackStep> fallbacks = new ArrayList<>();
        fallbacks.add(PreemptionPlanner.earmarkSoonFree(placer));
        if (packing) {
            fallbacks.add(new Packer(NAME, maxJobsPerGpu, snapshot.interferenceMemory(), pass.running()));
        }
        fallbacks.add(new PreemptionPlanner(new ExpiredSliceFirst(NAME, quantum), placer, pass.running()));
        List<Job> left = new GangScheduler(NAME, placer, ranking, fallbacks, false)
                .run(Pass.ordered(admitted, ranking), pass.alloc());
        if (migration && left.isEmpty()) {
            defragmenter.apply(pass.running(), pass.alloc());
        }
        return pass.alloc().decisions();
    }

    @Override
    public Optional<Instant> nextWakeUp(ClusterSnapshot snapshot) {
        return WakeUps.earliest(TimeSlices.nextEnd(snapshot, quantum),
                introspector.nextWakeUp(snapshot.now(), Pass.inState(snapshot, JobState.RUNNING)),
                WakeUps.relaxation(snapshot, placer.rule()));
    }
}
