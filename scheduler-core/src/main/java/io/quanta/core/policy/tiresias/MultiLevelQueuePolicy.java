package io.quanta.core.policy.tiresias;

import io.quanta.core.config.PolicyConfig;
import io.quanta.core.decision.Decisions;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.Job;
import io.quanta.core.plan.Placer;
import io.quanta.core.policy.AbstractPolicy;
import io.quanta.core.stage.GangScheduler;
import io.quanta.core.stage.LasRanking;
import io.quanta.core.stage.LowerQueueFirst;
import io.quanta.core.stage.MultiLevelQueue;
import io.quanta.core.stage.Pass;
import io.quanta.core.stage.PreemptionPlanner;
import io.quanta.core.stage.Ranking;
import io.quanta.core.stage.WakeUps;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The Tiresias pass shared by both variants: admission, queue changes (demotion, knob promotion), then allocation in
 * the variant's order with lower-queue preemption. Subclasses only choose the order inside a queue.
 */
public abstract class MultiLevelQueuePolicy extends AbstractPolicy {

    private final MultiLevelQueue queues;
    private final Placer placer;

    protected MultiLevelQueuePolicy(String name, PolicyConfig config) {
        super(name, config);
        this.queues = MultiLevelQueue.from(name, config);
        this.placer = new Placer(config.placementRule());
    }

    /** The order of waiting jobs for this snapshot, given their effective levels. */
    protected abstract Ranking ranking(ClusterSnapshot snapshot, LasRanking levels);

    protected final MultiLevelQueue queues() {
        return queues;
    }

    @Override
    public Decisions decide(ClusterSnapshot snapshot) {
        Pass pass = Pass.begin(snapshot);
        List<Job> admitted = pass.admit(name());
        queues.apply(pass.accruing(), admitted, pass.alloc());
        LasRanking levels = new LasRanking(queues, pass.alloc());
        Ranking ranking = ranking(snapshot, levels);
        PreemptionPlanner planner = new PreemptionPlanner(new LowerQueueFirst(name(), levels, queues), placer,
                pass.running());
        new GangScheduler(name(), placer, ranking, List.of(planner), false)
                .run(Pass.ordered(admitted, ranking), pass.alloc());
        return pass.alloc().decisions();
    }

    @Override
    public Optional<Instant> nextWakeUp(ClusterSnapshot snapshot) {
        return WakeUps.earliest(queues.nextWakeUp(snapshot), WakeUps.relaxation(snapshot, placer.rule()));
    }
}
