package io.quanta.core.stage;

import io.quanta.core.model.Job;
import io.quanta.core.plan.Allocation;
import io.quanta.core.plan.Text;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;

/** Two-level order: jobs within their tenant's quota (at pass start) before borrowing ones, then 2D-LAS. */
public final class QuotaRanking implements Ranking {

    private final LasRanking levels;
    private final Map<String, Boolean> within = new HashMap<>();
    private final TenantQuotas quotas;
    private final Allocation alloc;

    public QuotaRanking(LasRanking levels, TenantQuotas quotas, Allocation alloc) {
        this.levels = levels;
        this.quotas = quotas;
        this.alloc = alloc;
    }

    private boolean within(Job job) {
        return within.computeIfAbsent(job.id(), id -> quotas.withinQuota(job, alloc));
    }

    /**
     * A job beyond its tenant's quota may only borrow idle GPUs (and reclaim nothing), so the quota is what keeps it
     * waiting; a job within its quota waits for the reason of the levels.
     */
    @Override
    public Optional<String> waitingReason(Job job) {
        if (within(job)) {
            return levels.waitingReason(job);
        }
        return Optional.of("tenant quota " + alloc.tenantUsage(job.tenant()) + " GPUs in use of "
                + Text.num(quotas.quota(job.tenant()).orElseThrow()) + " (tenant " + job.tenant()
                + "; beyond its quota a job only borrows idle GPUs)");
    }

    @Override
    public Comparator<Job> order() {
        return Comparator.<Job, Boolean>comparing(j -> !within(j)).thenComparing(levels.order());
    }

    @Override
    public String describe(Job job) {
        return levels.describe(job) + ", " + (within(job) ? "within" : "beyond") + " quota of tenant " + job.tenant();
    }

    @Override
    public SortedMap<String, String> details(Job job) {
        SortedMap<String, String> d = levels.details(job);
        d.put("tenant", job.tenant());
        d.put("withinQuota", Boolean.toString(within(job)));
        return d;
    }
}
