package io.quanta.core.stage;

import io.quanta.core.model.Job;
import io.quanta.core.model.PooledService;
import io.quanta.core.model.ServiceDistribution;
import io.quanta.core.model.ServiceEstimate;
import io.quanta.core.model.TenantHistory;
import io.quanta.core.plan.Text;
import java.util.Comparator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;

/**
 * Discretised 2D-Gittins: lower queue level first; inside a queue, higher 2D-Gittins index first, computed from the
 * completed-job service distribution with the look-ahead set to the distance to the job's next queue threshold.
 * Optionally ({@code quanta.index-by-tenant}) a job's index comes from its own tenant's recent completed jobs
 * ({@link TenantHistory}) when the tenant has at least {@link #MIN_TENANT_SAMPLES} of them and one of them ran longer
 * than the job has so far, pooled with {@code quanta.tenant-prior-jobs} jobs spread as the cell's
 * ({@link PooledService}); otherwise from the cell's distribution. Optionally ({@code quanta.index=declared}) a job
 * that declares its duration ({@code expectedDurationSeconds}) and has not yet attained it is ranked by its declared
 * remaining GPU-seconds {@code r}, with index {@code 1/r}: the index of a job known to finish after exactly {@code r}
 * more GPU-seconds, so shortest declared remaining first. All these indices are chances of finishing per GPU-second
 * of service, so they compare.
 */
public final class GittinsRanking implements Ranking {

    /** The fewest recent completed jobs of a tenant that its own index is computed from. */
    public static final int MIN_TENANT_SAMPLES = 8;

    private final LasRanking levels;
    private final MultiLevelQueue queues;
    private final ServiceEstimate distribution;
    private final Map<String, Double> cache = new HashMap<>();
    private final Map<String, Double> bestCache = new HashMap<>();
    /** Each tenant's estimate pooled with the cell's, built once per pass ({@code quanta.tenant-prior-jobs}). */
    private final Map<String, ServiceEstimate> pooled = new HashMap<>();
    /** The level ordered by arrival instead of by index, or -1 for none. */
    private final int fifoLevel;
    /** The tenants' recent completed jobs to rank by, or null to rank by the cell's distribution only. */
    private final TenantHistory tenants;
    /** True to rank a job by its declared duration while it has not attained it. */
    private final boolean declared;
    /** The jobs spread as the cell's that a tenant's estimate holds beside the tenant's own. */
    private final double priorJobs;

    public GittinsRanking(LasRanking levels, MultiLevelQueue queues, ServiceEstimate distribution) {
        this(levels, queues, distribution, false, null, false, 0);
    }

    /**
     * @param fifoLastQueue true to order the last queue by arrival (Tiresias' FIFO) and only the queues above it by
     *     index: in the last queue the index puts the jobs that attained the most service, whose index the cell's
     *     completed jobs put at or near 0, behind every job demoted after them, so the longest jobs wait longest
     * @param tenants the tenants' recent completed jobs to compute a job's index from, or null for the cell's only
     * @param declared true to rank a job that declares its duration by its declared remaining GPU-seconds until it
     *     has attained them (then by the learned index, so that a declaration too short gains no more than itself)
     * @param tenantPriorJobs how many jobs spread as the cell's distribution a tenant's estimate holds beside the
     *     tenant's own (0 = the tenant's own alone, which can say a job cannot end where the cell's jobs do)
     */
    public GittinsRanking(LasRanking levels, MultiLevelQueue queues, ServiceEstimate distribution,
                          boolean fifoLastQueue, TenantHistory tenants, boolean declared, double tenantPriorJobs) {
        this.levels = levels;
        this.queues = queues;
        this.distribution = distribution;
        this.fifoLevel = fifoLastQueue ? queues.queueCount() - 1 : -1;
        this.tenants = tenants;
        this.declared = declared;
        this.priorJobs = tenantPriorJobs;
    }

    /**
     * The job's 2D-Gittins index G(a, D) with D = distance to the next threshold; with declared durations on, 1/r for
     * a job with r > 0 declared GPU-seconds left.
     */
    public double index(Job job) {
        return cache.computeIfAbsent(job.id(), id -> byDeclaration(job) ? declaredIndex(job)
                : basis(job).gittinsIndex(job.attainedGpuSeconds(),
                        queues.distanceToNextThreshold(job.attainedGpuSeconds())));
    }

    /**
     * The job's Gittins index over every look-ahead ({@link ServiceEstimate#bestIndex}), from the same distribution as
     * {@link #index}; with declared durations on, 1/r as there. Unlike {@link #index} it compares across queues.
     */
    public double bestIndex(Job job) {
        return bestCache.computeIfAbsent(job.id(), id -> byDeclaration(job) ? declaredIndex(job)
                : basis(job).bestIndex(job.attainedGpuSeconds()));
    }

    /** The index of a job known to finish after exactly its declared GPU-seconds left, {@code r}: 1/r. */
    private static double declaredIndex(Job job) {
        return 1 / SrtfRanking.remaining(job);
    }

    /** True when declared durations are on and the job declares one with GPU-seconds of it left. */
    private boolean byDeclaration(Job job) {
        if (!declared) {
            return false;
        }
        double left = SrtfRanking.remaining(job);
        return left > 0 && left < Double.POSITIVE_INFINITY;
    }

    /**
     * The estimate the job's index comes from: its tenant's (pooled with the cell's as configured) when the tenant's
     * own jobs say how much the job has left, else the cell's.
     */
    private ServiceEstimate basis(Job job) {
        if (tenants == null) {
            return distribution;
        }
        Optional<ServiceDistribution> own = tenants.distribution(job.tenant(), MIN_TENANT_SAMPLES)
                .filter(d -> d.hasSampleAbove(job.attainedGpuSeconds()));
        if (own.isEmpty()) {
            return distribution;
        }
        return priorJobs > 0 ? pooled.computeIfAbsent(job.tenant(), t -> PooledService.of(own.get(), distribution,
                priorJobs)) : own.get();
    }

    @Override
    public Comparator<Job> order() {
        return (a, b) -> compare(levels.level(a), key(a), a, levels.level(b), key(b), b);
    }

    /**
     * The index that orders the job inside its queue: 0 for every job of the FIFO level (arrival decides), unless it
     * has declared GPU-seconds left (a declared index is not the learned one near 0 that the FIFO level avoids).
     */
    private double key(Job job) {
        return key(job, levels.level(job));
    }

    private double key(Job job, int level) {
        return level == fifoLevel && !byDeclaration(job) ? 0 : index(job);
    }

    /** Sorts with each job's level and index computed once. */
    @Override
    public List<Job> sort(List<Job> jobs) {
        record Keyed(Job job, int level, double index) {
        }
        List<Keyed> keyed = new ArrayList<>(jobs.size());
        for (Job j : jobs) {
            int level = levels.level(j);
            keyed.add(new Keyed(j, level, key(j, level)));
        }
        keyed.sort((a, b) -> compare(a.level(), a.index(), a.job(), b.level(), b.index(), b.job()));
        List<Job> out = new ArrayList<>(keyed.size());
        keyed.forEach(k -> out.add(k.job()));
        return out;
    }

    private static int compare(int levelA, double indexA, Job a, int levelB, double indexB, Job b) {
        if (levelA != levelB) {
            return Integer.compare(levelA, levelB);
        }
        int byIndex = Double.compare(indexB, indexA);
        if (byIndex != 0) {
            return byIndex;
        }
        int bySeq = Long.compare(a.arrivalSeq(), b.arrivalSeq());
        return bySeq != 0 ? bySeq : a.id().compareTo(b.id());
    }

    /** Queues still come first: the reason of the levels. */
    @Override
    public Optional<String> waitingReason(Job job) {
        return levels.waitingReason(job);
    }

    @Override
    public String describe(Job job) {
        return "queue " + levels.level(job) + ", Gittins index " + String.format(java.util.Locale.ROOT, "%.6g",
                index(job)) + source(job)
                + ", attained " + Text.num(job.attainedGpuSeconds()) + " GPU-s";
    }

    /** Where the job's index came from, when not from the cell's distribution. */
    private String source(Job job) {
        if (byDeclaration(job)) {
            return " (from its declared duration: " + Text.num(SrtfRanking.remaining(job)) + " GPU-s left)";
        }
        if (basis(job) == distribution) {
            return "";
        }
        return " (from tenant " + job.tenant() + "'s recent jobs" + (priorJobs > 0 ? ", pooled with "
                + Text.num(priorJobs) + (priorJobs == 1 ? " job" : " jobs") + " spread as the cell's)" : ")");
    }

    @Override
    public SortedMap<String, String> details(Job job) {
        SortedMap<String, String> d = levels.details(job);
        d.put("gittinsIndex", String.format(java.util.Locale.ROOT, "%.6g", index(job)));
        return d;
    }
}
