package io.quanta.core.stage;

import io.quanta.core.decision.WaitingReason;
import io.quanta.core.model.GpuId;
import io.quanta.core.model.Job;
import io.quanta.core.placement.Placement;
import io.quanta.core.plan.Allocation;
import io.quanta.core.plan.Layer;
import io.quanta.core.plan.Placer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The allocate action: walks waiting jobs in priority order; starts each one that fits the free GPUs (gang: all of
 * its GPUs at once), else tries the fallback steps in order (preemption planner, packer...). With
 * head-of-line blocking (YARN-CS) it stops at the first job that cannot start. Returns the jobs left waiting without
 * GPUs (candidates for packing).
 */
public final class GangScheduler {

    private final String policy;
    private final Placer placer;
    private final Ranking ranking;
    private final List<FallbackStep> fallbacks;
    private final boolean headOfLineBlocking;

    public GangScheduler(String policy, Placer placer, Ranking ranking, List<FallbackStep> fallbacks,
                         boolean headOfLineBlocking) {
        this.policy = policy;
        this.placer = placer;
        this.ranking = ranking;
        this.fallbacks = List.copyOf(fallbacks);
        this.headOfLineBlocking = headOfLineBlocking;
    }

    /**
     * Allocates for {@code waiting} (already in priority order); returns the jobs that got neither GPUs nor a plan.
     * Every job it leaves waiting gets its reason ({@link Allocation#waiting}), in this pass's terms: its rank, and
     * what it lacks (GPUs, a placement the rule allows, its turn behind a blocked head of line, GPUs being freed).
     */
    public List<Job> run(List<Job> waiting, Allocation alloc) {
        List<Job> left = new ArrayList<>();
        Job head = null;
        int rank = 0;
        for (Job job : waiting) {
            rank++;
            if (alloc.hasActed(job.id())) {
                continue;
            }
            int at = rank;
            Supplier<String> position = () -> "priority " + at + " of " + waiting.size() + " waiting ("
                    + ranking.describe(job) + WaitingReason.SEPARATOR;
            if (head != null) {
                left.add(job);
                alloc.waiting(job, position, "behind job " + head.id() + ", which cannot start yet ("
                        + policy + " starts jobs strictly in order)");
                continue;
            }
            Optional<Placement> placement = placer.place(job, alloc.pool(), Layer.FREE);
            if (placement.isPresent()) {
                start(job, placement.get(), alloc);
                continue;
            }
            int free = alloc.pool().totalFree();
            if (!handled(job, alloc)) {
                left.add(job);
                alloc.unserved(job);
                alloc.waiting(job, position, lacks(job, free, alloc));
                head = headOfLineBlocking ? job : null;
            } else if (!alloc.hasActed(job.id())) {
                alloc.waiting(job, position, beingFreed(job, alloc));
            }
        }
        return left;
    }

    /** Why a job that a fallback took care of still waits: the GPUs being freed for it, and by whom. */
    private static String beingFreed(Job job, Allocation alloc) {
        List<GpuId> held = alloc.heldBack(job.id());
        if (held.isEmpty()) {
            return "GPUs are being freed for it (running jobs of lower priority are suspending)";
        }
        return held.size() + " GPUs on " + String.join(", ", held.stream().map(GpuId::nodeId).distinct().toList())
                + " are being freed for it (smaller jobs are moving off to make room) and held back for it";
    }

    /** What a job that could not be placed lacks, and the GPUs held back for it ({@link GangReservation}). */
    private String lacks(Job job, int free, Allocation alloc) {
        List<GpuId> held = alloc.heldBack(job.id());
        if (held.isEmpty()) {
            return lacksGpus(job, free, alloc);
        }
        String servers = String.join(", ", held.stream().map(GpuId::nodeId).distinct().toList());
        return lacksGpus(job, free, alloc) + "; " + held.size() + " GPU" + (held.size() == 1 ? "" : "s")
                + " on " + servers + " (free or being freed) are held back for it, so that jobs behind it cannot"
                + " take them";
    }

    /**
     * What a job that could not be placed lacks, with the free GPUs before the fallbacks ran, and the job ahead it did
     * not preempt for ({@link Allocation#yieldedTo}).
     */
    private String lacksGpus(Job job, int free, Allocation alloc) {
        return lacksFreeGpus(job, free, alloc) + alloc.yieldedTo(job.id()).map(ahead -> "; it could preempt, but job "
                + ahead + ", ahead of it and waiting, would take the GPUs freed, so it does not").orElse("");
    }

    private String lacksFreeGpus(Job job, int free, Allocation alloc) {
        int total = alloc.cell().snapshot().totalGpus();
        String need = "needs " + job.numGpus() + " GPU" + (job.numGpus() == 1 ? "" : "s")
                + job.gpuType().map(t -> " of model " + t).orElse("") + " at once";
        if (free < job.numGpus()) {
            return ranking.waitingReason(job).map(order -> order + "; ").orElse("") + need + "; " + free + " of "
                    + total + " GPUs are free";
        }
        int largest = alloc.pool().largestFreeOnOneNode();
        return need + "; " + free + " of " + total + " GPUs are free (at most " + largest + " on one server), but "
                + "not in a placement the rule allows (" + placer.rule().describe(job, alloc.cell().snapshot().now())
                + ")";
    }

    private boolean handled(Job job, Allocation alloc) {
        for (FallbackStep step : fallbacks) {
            if (step.handle(job, alloc)) {
                return true;
            }
        }
        return false;
    }

    private void start(Job job, Placement placement, Allocation alloc) {
        SortedMap<String, String> details = new TreeMap<>(ranking.details(job));
        details.put("placement", placement.describe());
        alloc.start(job, placement.gpus(), policy + ": start job " + job.id() + " (" + ranking.describe(job) + ") on "
                + placement.describe(), details);
    }
}
