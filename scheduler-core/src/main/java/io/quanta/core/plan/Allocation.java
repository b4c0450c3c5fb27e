package io.quanta.core.plan;

import io.quanta.core.decision.Decision;
import io.quanta.core.decision.Decisions;
import io.quanta.core.decision.WaitingReason;
import io.quanta.core.model.Gpu;
import io.quanta.core.model.GpuId;
import io.quanta.core.model.Job;
import io.quanta.core.model.JobState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The transaction of one pass: reserves GPUs in a {@link GpuPool} as decisions are planned, guarantees that each job
 * gets at most one placement action, and emits the decisions in the documented order at the end (rejections, queue
 * changes, introspection outcomes, suspensions and migrations, then starts and packs). Local to one pass.
 */
public final class Allocation {

    private final GpuPool pool;
    private final List<Decision> rejects = new ArrayList<>();
    private final List<Decision> queueChanges = new ArrayList<>();
    private final List<Decision> introspection = new ArrayList<>();
    private final List<Decision> releases = new ArrayList<>();
    private final List<Decision> placements = new ArrayList<>();
    private final Set<String> acted = new HashSet<>();
    private final Set<String> suspended = new HashSet<>();
    private final Map<String, Integer> levels = new HashMap<>();
    private final Map<String, Integer> tenantUsage = new HashMap<>();
    private final SortedMap<String, WaitingReason> waiting = new TreeMap<>();
    private final Map<String, List<GpuId>> heldBack = new HashMap<>();
    private final List<Job> unserved = new ArrayList<>();
    private final Map<String, String> yieldedTo = new HashMap<>();
    private boolean usageCounted;

    public Allocation(CellIndex cell) {
        this.pool = new GpuPool(cell);
    }

    /** GPUs a tenant holds or will hold after this pass's starts, packs, earmarks and suspensions. */
    public int tenantUsage(String tenant) {
        if (!usageCounted) {
            usageCounted = true;
            for (Job j : pool.cell().snapshot().jobs()) {
                if (j.state().holdsGpus()) {
                    tenantUsage.merge(j.tenant(), j.numGpus(), Integer::sum);
                }
            }
        }
        return tenantUsage.getOrDefault(tenant, 0);
    }

    private void addUsage(Job job, int gpus) {
        if (usageCounted) {
            tenantUsage.merge(job.tenant(), gpus, Integer::sum);
        }
    }

    public GpuPool pool() {
        return pool;
    }

    public CellIndex cell() {
        return pool.cell();
    }

    /** How many jobs have a placement action so far in this pass (grows only: a cheap "has anything acted since"). */
    public int actedCount() {
        return acted.size();
    }

    /** True when the job already has a placement action (start, pack, suspend, migrate, reject) in this pass. */
    public boolean hasActed(String jobId) {
        return acted.contains(jobId);
    }

    /** The job's queue level after this pass's queue changes. */
    public int level(Job job) {
        if (levels.isEmpty()) {
            return job.queueLevel();
        }
        return levels.getOrDefault(job.id(), job.queueLevel());
    }

    public void reject(Job job, String reason, SortedMap<String, String> details) {
        act(job);
        rejects.add(new Decision.Reject(job.id(), reason, details));
    }

    public void changeQueue(Job job, int toLevel, String reason, SortedMap<String, String> details) {
        queueChanges.add(new Decision.ChangeQueue(job.id(), level(job), toLevel, reason, details));
        levels.put(job.id(), toLevel);
    }

    public void confirm(Job job, String reason, SortedMap<String, String> details) {
        introspection.add(new Decision.ConfirmPlacement(job.id(), reason, details));
    }

    public void recordInterference(Job job, Job other, String reason, SortedMap<String, String> details) {
        introspection.add(new Decision.RecordInterference(job.id(), other.id(), job.profile().modelName(),
                other.profile().modelName(), reason, details));
    }

    /** Starts a job on free GPUs and takes them from the pool. */
    public void start(Job job, List<GpuId> gpus, String reason, SortedMap<String, String> details) {
        for (GpuId g : gpus) {
            if (!pool.isFree(g)) {
                throw new IllegalStateException("planned start of " + job.id() + " on GPU " + g + " that is not free");
            }
        }
        act(job);
        pool.take(gpus);
        addUsage(job, job.numGpus());
        placements.add(new Decision.Start(job.id(), gpus, reason, details));
    }

    /** Packs a job onto GPUs it shares with running jobs (they are not free, the pool is unchanged). */
    public void pack(Job job, List<GpuId> gpus, List<String> with, String reason, SortedMap<String, String> details) {
        act(job);
        addUsage(job, job.numGpus());
        placements.add(new Decision.Pack(job.id(), gpus, with, reason, details));
    }

    /** True when the job is suspended or migrated by this pass. */
    public boolean isSuspended(String jobId) {
        return suspended.contains(jobId);
    }

    /**
     * Suspends a running job; GPUs it holds alone become soon-free for later plans of this pass (the caller
     * earmarks the ones it needs).
     */
    public void suspend(Job job, String reason, SortedMap<String, String> details) {
        act(job);
        suspended.add(job.id());
        addUsage(job, -job.numGpus());
        releases.add(new Decision.Suspend(job.id(), reason, details));
        pool.addSoon(heldAlone(job));
    }

    /** Migrates a running job to free GPUs {@code to}, which are taken; its old GPUs become soon-free. */
    public void migrate(Job job, List<GpuId> to, String reason, SortedMap<String, String> details) {
        for (GpuId g : to) {
            if (!pool.isFree(g)) {
                throw new IllegalStateException("planned migration of " + job.id() + " to GPU " + g + " that is not free");
            }
        }
        act(job);
        suspended.add(job.id());
        pool.take(to);
        releases.add(new Decision.Migrate(job.id(), job.placement(), to, reason, details));
        pool.addSoon(heldAlone(job));
    }

    /** Reserves free or soon-free GPUs for a waiting job so that lower-priority jobs cannot take them. */
    public void earmark(Job job, List<GpuId> gpus) {
        pool.take(gpus);
        addUsage(job, job.numGpus());
    }

    /**
     * Holds free or soon-free GPUs back for a waiting job that cannot start yet, so that jobs after it in this pass
     * cannot take them (no decision: the job still waits, and the next pass decides again).
     */
    public void holdBack(Job job, List<GpuId> gpus) {
        pool.take(gpus);
        heldBack.put(job.id(), List.copyOf(gpus));
    }

    /**
     * Gives up the GPUs held back for the job in this pass, when all of them were free (a plan that came to nothing):
     * they are free again for the jobs after it.
     */
    public void releaseFreeHold(Job job) {
        List<GpuId> held = heldBack.remove(job.id());
        if (held != null) {
            pool.giveBack(held);
        }
    }

    /** The GPUs held back for the job in this pass ({@link #holdBack}), else empty. */
    public List<GpuId> heldBack(String jobId) {
        return heldBack.getOrDefault(jobId, List.of());
    }

    /**
     * Records that {@code job} was tried in this pass and got neither GPUs nor a plan (no start, earmark, preemption,
     * room or pack): it waits, ranked ahead of every job tried after it.
     */
    public void unserved(Job job) {
        unserved.add(job);
    }

    /** The jobs recorded by {@link #unserved} so far in this pass, in the order they were tried (a read-only view). */
    public List<Job> unserved() {
        return Collections.unmodifiableList(unserved);
    }

    /**
     * Records that {@code job} could have preempted but did not, because {@code ahead}, left waiting earlier in this
     * pass, would take the GPUs freed ({@code quanta.preemption-serves=preemptor}): part of its waiting reason.
     */
    public void yieldedTo(Job job, Job ahead) {
        yieldedTo.put(job.id(), ahead.id());
    }

    /** The job {@code jobId} did not preempt for in this pass ({@link #yieldedTo}), if any. */
    public Optional<String> yieldedTo(String jobId) {
        return Optional.ofNullable(yieldedTo.get(jobId));
    }

    /** Records why {@code job} still waits after this pass (the last reason given for a job wins). */
    public void waiting(Job job, java.util.function.Supplier<String> position, String cause) {
        waiting.put(job.id(), new WaitingReason(position, cause));
    }

    /** The decisions in application order. */
    public Decisions decisions() {
        List<Decision> all = new ArrayList<>(rejects.size() + queueChanges.size() + introspection.size()
                + releases.size() + placements.size());
        all.addAll(rejects);
        all.addAll(queueChanges);
        all.addAll(introspection);
        all.addAll(releases);
        all.addAll(placements);
        return all.isEmpty() && waiting.isEmpty() ? Decisions.none() : new Decisions(all, waiting);
    }

    /** GPUs of the job that every occupant leaves (suspended in this pass or already suspending). */
    private List<GpuId> heldAlone(Job job) {
        List<GpuId> alone = new ArrayList<>(job.placement().size());
        for (GpuId g : job.placement()) {
            Gpu gpu = pool.cell().gpuOrNull(g);
            if (gpu != null && allLeaving(gpu.jobIds())) {
                alone.add(g);
            }
        }
        return alone;
    }

    private boolean allLeaving(List<String> jobIds) {
        for (String id : jobIds) {
            if (!leaving(id)) {
                return false;
            }
        }
        return true;
    }

    private boolean leaving(String jobId) {
        if (suspended.contains(jobId)) {
            return true;
        }
        Job j = pool.cell().job(jobId);
        return j != null && j.state() == JobState.SUSPENDING;
    }

    private void act(Job job) {
        if (!acted.add(job.id())) {
            throw new IllegalStateException("job " + job.id() + " already has a placement decision in this pass");
        }
    }
}
