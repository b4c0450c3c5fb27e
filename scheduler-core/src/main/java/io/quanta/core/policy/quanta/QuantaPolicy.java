package io.quanta.core.policy.quanta;

import io.quanta.core.config.PolicyConfig;
import io.quanta.core.config.PolicyConfigKeys;
import io.quanta.core.decision.Decisions;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.Job;
import io.quanta.core.model.CensoredService;
import io.quanta.core.model.ServiceDistribution;
import io.quanta.core.model.ServiceEstimate;
import io.quanta.core.plan.Placer;
import io.quanta.core.policy.AbstractPolicy;
import io.quanta.core.stage.FallbackStep;
import io.quanta.core.stage.GangReservation;
import io.quanta.core.stage.GangScheduler;
import io.quanta.core.stage.DemotionGrace;
import io.quanta.core.stage.GittinsPreemptionGate;
import io.quanta.core.stage.GittinsRanking;
import io.quanta.core.stage.ImpossibleConsolidationRelaxer;
import io.quanta.core.stage.IntrospectivePacking;
import io.quanta.core.stage.LasRanking;
import io.quanta.core.stage.LowerQueueFirst;
import io.quanta.core.stage.MakeRoom;
import io.quanta.core.stage.MultiLevelQueue;
import io.quanta.core.stage.PackSlowdownLimit;
import io.quanta.core.stage.PackSplitter;
import io.quanta.core.stage.Pass;
import io.quanta.core.stage.PreemptionBackoff;
import io.quanta.core.stage.PreemptionPlanner;
import io.quanta.core.stage.PreemptionRule;
import io.quanta.core.stage.PromotedJobGate;
import io.quanta.core.stage.QuotaRanking;
import io.quanta.core.stage.QuotaReclaim;
import io.quanta.core.stage.Ranking;
import io.quanta.core.stage.TenantQuotas;
import io.quanta.core.stage.ThresholdQuantiles;
import io.quanta.core.stage.WakeUps;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Our default: Tiresias' queues (demotion, lower-queue preemption), their thresholds learned as quantiles of the
 * cell's completed jobs' service ({@link ThresholdQuantiles}), ordered inside a queue by the 2D-Gittins index
 * learned from completed jobs (from the job's own tenant's last completed jobs when they say enough; the last queue
 * by arrival), with a starvation knob for the tail; a lower-queue job is preempted only when the
 * waiting job's Gittins index is higher than its own ({@link GittinsPreemptionGate}), and by a job the starvation knob
 * promoted only when it attained more service than the promoted job ({@link PromotedJobGate}); consolidated placement
 * for every model whose tensors are skewed enough to lose speed when spread, waiting up to an hour for it, or half the
 * time a gang has already run if that is longer (at once spread when no rack could ever hold the gang); Gandiva-style
 * packing when over-subscribed, kept only when introspection measures more useful work than running one job at a time
 * and undone once no job waits (optionally also onto GPUs the jobs left waiting cannot use, {@link PackSplitter});
 * de-fragmenting migration; and tenant fairness: with quotas configured, jobs within their tenant's quota go first
 * and reclaim lent GPUs by preempting borrowers; optionally, a gang that waited long
 * holds back the free GPUs of the servers nearest to holding it ({@link GangReservation}), a gang that waits for a
 * consolidated placement while enough GPUs are free has room made for it by moving smaller jobs ({@link MakeRoom}),
 * once no job waits a packed gang gets a server emptied for it the same way ({@link MakeRoom#unpack}), and a waiting
 * gang packs only with a model pair that a running pack has proven ({@code quanta.gang-packs=proven}), and a waiting
 * gang that must still consolidate packs only onto a consolidated partner ({@code quanta.pack-locality=rule}).
 * {@link QuantaSettings} says which shared settings the {@code quanta.*} keys replace.
 */
public final class QuantaPolicy extends AbstractPolicy {

    /** Registered name. */
    public static final String NAME = "quanta";

    private final QuantaSettings settings;
    private final ThresholdQuantiles thresholdQuantiles;
    private final MultiLevelQueue configuredQueues;
    private final Placer placer;
    private final TenantQuotas quotas;
    private final IntrospectivePacking gandiva;
    private final boolean gittins;
    private final PackSlowdownLimit slowdownLimit;
    private final PackSplitter splitter;
    private final ServiceDistribution prior;
    private final int minSamples;
    private final boolean preemptByIndex;
    private final int migrationsPerPass;
    private final boolean migrationEnabled;

    public QuantaPolicy(PolicyConfig config) {
        super(NAME, config);
        QuantaSettings settings = QuantaSettings.from(config);
        this.settings = settings;
        this.configuredQueues = settings.queues(NAME, config);
        this.placer = new Placer(settings.placement());
        this.quotas = new TenantQuotas(config);
        this.gandiva = new IntrospectivePacking(NAME, settings.introspectionConfig(config), placer);
        this.gittins = settings.order().gittins();
        this.slowdownLimit = new PackSlowdownLimit(NAME, settings.packing().minSpeed());
        this.migrationsPerPass = config.get(PolicyConfigKeys.MIGRATIONS_PER_PASS);
        this.migrationEnabled = config.get(PolicyConfigKeys.MIGRATION);
        this.splitter = new PackSplitter(NAME, placer, settings.packing().unpack() ? migrationsPerPass : 0,
                settings.packing().unpackWhileWaiting());
        double[] values = config.get(PolicyConfigKeys.GITTINS_PRIOR);
        this.prior = ServiceDistribution.of(Math.max(values.length, 1), config.get(PolicyConfigKeys.GITTINS_SEED),
                values);
        this.minSamples = config.get(PolicyConfigKeys.GITTINS_MIN_SAMPLES);
        this.thresholdQuantiles = new ThresholdQuantiles(settings.order().thresholdQuantiles(), minSamples);
        this.preemptByIndex = settings.preemption().byIndex();
    }

    @Override
    public Decisions decide(ClusterSnapshot snapshot) {
        Pass pass = Pass.begin(snapshot);
        Learned learned = learned(snapshot);
        MultiLevelQueue queues = queuesFor(learned.thresholds());
        List<Job> admitted = pass.admit(NAME);
        queues.apply(pass.accruing(), admitted, pass.alloc());
        gandiva.introspect(pass);
        slowdownLimit.apply(pass.running(), pass.alloc());
        LasRanking levels = new LasRanking(queues, pass.alloc());
        QuantaSettings.Order order = settings.order();
        GittinsRanking index = gittins || preemptByIndex
                ? new GittinsRanking(levels, queues, distributionFor(learned.index()), order.fifoLastQueue(),
                        order.indexByTenant() ? snapshot.serviceDistribution().tenants() : null,
                        order.declaredIndex(), order.tenantPriorJobs()) : null;
        Ranking ranking = gittins ? index : levels;
        PreemptionRule rule = gated(new LowerQueueFirst(NAME, levels, queues), levels, queues, index);
        if (quotas.enabled()) {
            List<Job> holding = snapshot.jobs().stream().filter(j -> j.state().holdsGpus()).toList();
            ranking = new QuotaRanking(levels, quotas, pass.alloc());
            rule = new QuotaReclaim(NAME, levels, queues, quotas, quotas.borrowers(new ArrayList<>(holding), levels),
                    pass.alloc());
        }
        List<FallbackStep> fallbacks = new ArrayList<>();
        fallbacks.add(new ImpossibleConsolidationRelaxer(NAME, placer));
        QuantaSettings.Room roomSettings = settings.room();
        MakeRoom room = null;
        boolean movesJobs = roomSettings.makeRoom() || roomSettings.reconsolidate() || roomSettings.unpackRoom();
        if (migrationEnabled && movesJobs) {
            room = new MakeRoom(NAME, placer, pass.running(), migrationsPerPass, roomSettings.moveMinRun());
            if (roomSettings.reconsolidate()) {
                room.reconsolidate(pass.alloc());
            }
            if (roomSettings.makeRoom()) {
                fallbacks.add(room);
            }
        }
        QuantaSettings.Packing packing = settings.packing();
        Optional<FallbackStep> packer = gandiva.packer(pass, packing.provenGangPacks(), packing.locality());
        PreemptionPlanner planner = new PreemptionPlanner(rule, placer, pass.running(),
                settings.preemption().packVictimsAtHost(), settings.preemption().servesPreemptor());
        if (packing.first() && packer.isPresent()) {
            fallbacks.add(PreemptionPlanner.earmarkSoonFree(placer));
            fallbacks.add(packer.get());
            fallbacks.add(planner.victimsOnly());
        } else {
            fallbacks.add(planner);
            packer.ifPresent(fallbacks::add);
        }
        if (roomSettings.reserveAfter() > 0) {
            fallbacks.add(new GangReservation(roomSettings.reserveAfter()));
        }
        List<Job> left = new GangScheduler(NAME, placer, ranking, fallbacks, false)
                .run(Pass.ordered(admitted, ranking), pass.alloc());
        gandiva.defragment(pass, left, roomSettings.defragmentWhileWaiting());
        splitter.apply(pass.running(), left, pass.alloc(), roomSettings.unpackRoom() ? room : null);
        return pass.alloc().decisions();
    }

    /**
     * The queue rule narrowed by the gates the settings turn on: the Gittins index, promoted jobs, the backoff, the
     * demotion grace.
     */
    private PreemptionRule gated(PreemptionRule rule, LasRanking levels, MultiLevelQueue queues, GittinsRanking index) {
        QuantaSettings.Preemption preemption = settings.preemption();
        PreemptionRule gated = rule;
        if (preemptByIndex) {
            gated = new GittinsPreemptionGate(gated, index, preemption.gatePrefix(), preemption.gateIndex());
        }
        if (preemption.promotedAhead()) {
            gated = new PromotedJobGate(gated, levels, queues, preemption.promotedMargin());
        }
        if (preemption.backoff() > 0) {
            gated = new PreemptionBackoff(gated, preemption.backoff());
        }
        if (preemption.demotionGrace() > 0) {
            gated = new DemotionGrace(gated, levels, queues, preemption.demotionGrace());
        }
        return gated;
    }

    /** What the queue thresholds and the 2D-Gittins index are learned from ({@code quanta.service-estimate}). */
    private record Learned(ServiceEstimate thresholds, ServiceEstimate index) {
    }

    /**
     * The completed jobs' sample for each, or where {@code quanta.service-estimate} says so the product-limit
     * estimate from it and every alive job's attained service (built once, only when one of the two reads it).
     */
    private Learned learned(ClusterSnapshot snapshot) {
        ServiceDistribution completed = snapshot.serviceDistribution();
        if (!settings.order().censoredThresholds() && !settings.order().censoredIndex()) {
            return new Learned(completed, completed);
        }
        double[] alive = snapshot.jobs().stream().filter(j -> !j.state().isTerminal())
                .mapToDouble(Job::attainedGpuSeconds).toArray();
        CensoredService censored = CensoredService.of(completed, alive);
        return new Learned(settings.order().censoredThresholds() ? censored : completed,
                settings.order().censoredIndex() ? censored : completed);
    }

    /** The queues with the configured thresholds, or with those learned from the cell's jobs. */
    private MultiLevelQueue queuesFor(ServiceEstimate learned) {
        return thresholdQuantiles.thresholds(learned)
                .map(thresholds -> settings.queues(NAME, thresholds)).orElse(configuredQueues);
    }

    /** The learned estimate once enough jobs completed, else the configured prior. */
    private ServiceEstimate distributionFor(ServiceEstimate learned) {
        return learned.size() >= minSamples ? learned : prior;
    }

    @Override
    public Optional<Instant> nextWakeUp(ClusterSnapshot snapshot) {
        MultiLevelQueue queues = queuesFor(settings.order().censoredThresholds() ? learned(snapshot).thresholds()
                : snapshot.serviceDistribution());
        QuantaSettings.Preemption preemption = settings.preemption();
        double moveMinRun = settings.room().moveMinRun();
        return WakeUps.earliest(queues.nextWakeUp(snapshot),
                gandiva.nextWakeUp(snapshot),
                WakeUps.relaxation(snapshot, placer.rule()),
                preemption.backoff() > 0
                        ? PreemptionBackoff.nextWakeUp(snapshot, preemption.backoff()) : Optional.empty(),
                preemption.demotionGrace() > 0
                        ? DemotionGrace.nextWakeUp(snapshot, queues, preemption.demotionGrace()) : Optional.empty(),
                moveMinRun > 0 && migrationEnabled
                        ? WakeUps.protectionEnds(snapshot, job -> moveMinRun - job.executedSeconds())
                        : Optional.empty());
    }
}
