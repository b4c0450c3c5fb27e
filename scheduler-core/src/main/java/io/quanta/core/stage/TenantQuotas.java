package io.quanta.core.stage;

import io.quanta.core.config.PolicyConfig;
import io.quanta.core.model.Job;
import io.quanta.core.plan.Allocation;
import io.quanta.core.plan.Text;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Per-tenant GPU quotas with lending: idle GPUs go to anyone, but the GPUs a tenant holds beyond its quota are
 * borrowed. A tenant's jobs are counted in priority order (queue, then arrival), so the lowest-priority jobs are the
 * borrowers. A job is within quota when its tenant's usage plus its GPUs stays at or under the quota.
 */
public final class TenantQuotas {

    private final PolicyConfig config;

    public TenantQuotas(PolicyConfig config) {
        this.config = config;
    }

    public boolean enabled() {
        return config.quotasEnabled();
    }

    public OptionalDouble quota(String tenant) {
        return config.quotaOf(tenant);
    }

    /** True when the waiting job fits its tenant's quota given this pass's usage so far (always, without a quota). */
    public boolean withinQuota(Job waiting, Allocation alloc) {
        OptionalDouble q = quota(waiting.tenant());
        return q.isEmpty() || alloc.tenantUsage(waiting.tenant()) + waiting.numGpus() <= q.getAsDouble();
    }

    /** Ids of the GPU-holding jobs that lie beyond their tenant's quota. */
    public Set<String> borrowers(List<Job> holding, LasRanking levels) {
        Map<String, List<Job>> byTenant = new HashMap<>();
        for (Job j : holding) {
            byTenant.computeIfAbsent(j.tenant(), t -> new ArrayList<>()).add(j);
        }
        Set<String> out = new HashSet<>();
        for (Map.Entry<String, List<Job>> e : byTenant.entrySet()) {
            OptionalDouble q = quota(e.getKey());
            if (q.isEmpty()) {
                continue;
            }
            List<Job> jobs = e.getValue();
            jobs.sort(levels.order());
            int used = 0;
            for (Job j : jobs) {
                used += j.numGpus();
                if (used > q.getAsDouble()) {
                    out.add(j.id());
                }
            }
        }
        return out;
    }

    /** Short text of a tenant's quota for reasons. */
    public String describe(String tenant, Allocation alloc) {
        OptionalDouble q = quota(tenant);
        return "tenant " + tenant + " uses " + alloc.tenantUsage(tenant) + " GPUs, quota "
                + (q.isEmpty() ? "unlimited" : Text.num(q.getAsDouble()));
    }
}
