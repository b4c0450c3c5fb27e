package io.quanta.core.stage;

import io.quanta.core.model.Job;
import io.quanta.core.plan.Allocation;
import java.util.Comparator;
import java.util.Set;

/**
 * Preemption with tenant quotas: a job within its tenant's quota reclaims lent GPUs by preempting other tenants'
 * borrowing jobs (any queue), and preempts its own tenant's jobs of lower queues; a borrowing job may only preempt
 * borrowing jobs of lower queues. Borrowers go first, then lowest queue and latest arrival.
 */
public final class QuotaReclaim implements PreemptionRule {

    private final String policy;
    private final LasRanking levels;
    private final TenantQuotas quotas;
    private final Set<String> borrowers;
    private final Allocation alloc;
    private final LowerQueueFirst las;

    public QuotaReclaim(String policy, LasRanking levels, MultiLevelQueue queues, TenantQuotas quotas,
                        Set<String> borrowers, Allocation alloc) {
        this.policy = policy;
        this.levels = levels;
        this.quotas = quotas;
        this.borrowers = borrowers;
        this.alloc = alloc;
        this.las = new LowerQueueFirst(policy, levels, queues);
    }

    @Override
    public boolean eligible(Job running) {
        return true;
    }

    @Override
    public Comparator<Job> victimOrder() {
        return Comparator.<Job, Boolean>comparing(j -> !borrowers.contains(j.id())).thenComparing(las.victimOrder());
    }

    @Override
    public boolean prefixMonotone() {
        return false;
    }

    @Override
    public boolean mayPreempt(Job waiting, Job victim) {
        boolean lower = levels.level(victim) > levels.level(waiting);
        boolean borrowing = borrowers.contains(victim.id());
        if (quotas.withinQuota(waiting, alloc)) {
            return (borrowing && !victim.tenant().equals(waiting.tenant()))
                    || (lower && victim.tenant().equals(waiting.tenant()));
        }
        return borrowing && lower;
    }

    @Override
    public String reason(Job waiting, Job victim) {
        if (borrowers.contains(victim.id()) && !victim.tenant().equals(waiting.tenant())) {
            return policy + ": tenant quota: job " + victim.id() + " of tenant " + victim.tenant()
                    + " runs on GPUs borrowed beyond its quota; reclaimed for job " + waiting.id() + " ("
                    + quotas.describe(waiting.tenant(), alloc) + ")";
        }
        return las.reason(waiting, victim);
    }
}
