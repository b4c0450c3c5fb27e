package io.quanta.core.policy.quanta;

import io.quanta.core.decision.Decisions;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.Job;
import io.quanta.core.placement.PlacementRule;
import io.quanta.core.plan.Placer;
import io.quanta.core.policy.AbstractPolicy;
import io.quanta.core.policy.PolicyConfig;
import io.quanta.core.stage.FallbackStep;
import io.quanta.core.stage.GangScheduler;
import io.quanta.core.stage.IntrospectivePacking;
import io.quanta.core.stage.LasRanking;
import io.quanta.core.stage.LowerQueueFirst;
import io.quanta.core.stage.MultiLevelQueue;
import io.quanta.core.stage.Pass;
import io.quanta.core.stage.PreemptionPlanner;
import io.quanta.core.stage.PreemptionRule;
import io.quanta.core.stage.QuotaRanking;
import io.quanta.core.stage.QuotaReclaim;
import io.quanta.core.stage.Ranking;
import io.quanta.core.stage.TenantQuotas;
import io.quanta.core.stage.WakeUps;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Our default: {@code tiresias-las} (queues, demotion, knob, lower-queue preemption) plus Gandiva-style
 * introspective packing when over-subscribed and de-fragmenting migration, plus tenant fairness: with quotas
 * configured, jobs within their tenant's quota go first and reclaim lent GPUs by preempting borrowers.
 */
public final class QuantaPolicy extends AbstractPolicy {

    /** Registered name. */
    public static final String NAME = "quanta";

    private final MultiLevelQueue queues;
    private final Placer placer;
    private final TenantQuotas quotas;
    private final IntrospectivePacking gandiva;

    public QuantaPolicy(PolicyConfig config) {
        super(NAME, config);
        this.queues = MultiLevelQueue.from(NAME, config);
        this.placer = new Placer(PlacementRule.from(config));
        this.quotas = new TenantQuotas(config);
        this.gandiva = new IntrospectivePacking(NAME, config, placer);
    }

    @Override
    public Decisions decide(ClusterSnapshot snapshot) {
        Pass pass = Pass.begin(snapshot);
        List<Job> admitted = pass.admit(NAME);
        queues.apply(pass.accruing(), admitted, pass.alloc());
        gandiva.introspect(pass);
        LasRanking levels = new LasRanking(queues, pass.alloc());
        Ranking ranking = levels;
        PreemptionRule rule = new LowerQueueFirst(NAME, levels, queues);
        if (quotas.enabled()) {
            List<Job> holding = snapshot.jobs().stream().filter(j -> j.state().holdsGpus()).toList();
            ranking = new QuotaRanking(levels, quotas, pass.alloc());
            rule = new QuotaReclaim(NAME, levels, queues, quotas, quotas.borrowers(new ArrayList<>(holding), levels),
                    pass.alloc());
        }
        List<FallbackStep> fallbacks = new ArrayList<>();
        fallbacks.add(new PreemptionPlanner(rule, placer, pass.running()));
        gandiva.packer(pass).ifPresent(fallbacks::add);
        List<Job> left = new GangScheduler(NAME, placer, ranking, fallbacks, false)
                .run(Pass.ordered(admitted, ranking), pass.alloc());
        gandiva.defragment(pass, left);
        return pass.alloc().decisions();
    }

    @Override
    public Optional<Instant> nextWakeUp(ClusterSnapshot snapshot) {
        return WakeUps.earliest(queues.nextWakeUp(snapshot),
                gandiva.nextWakeUp(snapshot),
                WakeUps.relaxation(snapshot, placer.rule()));
    }
}
