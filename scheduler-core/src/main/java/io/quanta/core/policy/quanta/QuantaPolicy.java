package io.quanta.core.policy.quanta;

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
import io.quanta.core.stage.FallbackStep;
import io.quanta.core.stage.GangScheduler;
import io.quanta.core.stage.Introspector;
import io.quanta.core.stage.LasRanking;
import io.quanta.core.stage.LowerQueueFirst;
import io.quanta.core.stage.MultiLevelQueue;
import io.quanta.core.stage.Packer;
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
    private final Introspector introspector;
    private final TenantQuotas quotas;
    private final boolean packing;
    private final int maxJobsPerGpu;
    private final boolean migration;
    private final Defragmenter defragmenter;

    public QuantaPolicy(PolicyConfig config) {
        super(NAME, config);
        this.queues = MultiLevelQueue.from(NAME, config);
        this.placer = new Placer(PlacementRule.from(config));
        this.introspector = new Introspector(NAME, config.get(PolicyConfigKeys.INTROSPECTION_WINDOW_S),
                config.get(PolicyConfigKeys.INTROSPECTION_MIN_GAIN));
        this.quotas = new TenantQuotas(config);
        this.packing = config.get(PolicyConfigKeys.PACKING);
        this.maxJobsPerGpu = config.get(PolicyConfigKeys.MAX_JOBS_PER_GPU);
        this.migration = config.get(PolicyConfigKeys.MIGRATION);
        this.defragmenter = new Defragmenter(NAME, placer, config.get(PolicyConfigKeys.MIGRATIONS_PER_PASS));
    }

    @Override
    public Decisions decide(ClusterSnapshot snapshot) {
        Pass pass = Pass.begin(snapshot);
        List<Job> admitted = new Admission(NAME).admit(pass.queued(), pass.alloc());
        queues.apply(pass.accruing(), admitted, pass.alloc());
        introspector.apply(pass.running(), pass.alloc(), placer);
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
        if (packing) {
            fallbacks.add(new Packer(NAME, maxJobsPerGpu, snapshot.interferenceMemory(), pass.running()));
        }
        List<Job> left = new GangScheduler(NAME, placer, ranking, fallbacks, false)
                .run(Pass.ordered(admitted, ranking), pass.alloc());
        if (migration && left.isEmpty()) {
            defragmenter.apply(pass.running(), pass.alloc());
        }
        return pass.alloc().decisions();
    }

    @Override
    public Optional<Instant> nextWakeUp(ClusterSnapshot snapshot) {
        return WakeUps.earliest(queues.nextWakeUp(snapshot),
                introspector.nextWakeUp(snapshot.now(), Pass.inState(snapshot, JobState.RUNNING)),
                WakeUps.relaxation(snapshot, placer.rule()));
    }
}
