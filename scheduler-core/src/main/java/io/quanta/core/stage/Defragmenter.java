package io.quanta.core.stage;

import io.quanta.core.model.GpuId;
import io.quanta.core.model.Job;
import io.quanta.core.placement.Placement;
import io.quanta.core.plan.Allocation;
import io.quanta.core.plan.CellIndex;
import io.quanta.core.plan.Layer;
import io.quanta.core.plan.Placer;
import io.quanta.core.plan.Text;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * De-fragmentation by migration (Gandiva): a running multi-GPU job that wants consolidation but is spread over more
 * nodes than needed moves to a consolidated set of free GPUs. Most-spread jobs first, at most {@code maxPerPass} per
 * pass; packed jobs and jobs under introspection are left alone. The caller says when: Gandiva when no job is left
 * waiting, quanta with {@code quanta.defragment=always} also after the waiting jobs took every free GPU they could.
 */
public final class Defragmenter {

    private final String policy;
    private final Placer placer;
    private final int maxPerPass;

    public Defragmenter(String policy, Placer placer, int maxPerPass) {
        this.policy = policy;
        this.placer = placer;
        this.maxPerPass = maxPerPass;
    }

    public void apply(List<Job> running, Allocation alloc) {
        if (maxPerPass == 0) {
            return;
        }
        int moved = 0;
        for (Job job : spreadGangs(running, alloc, placer)) {
            if (moved >= maxPerPass || alloc.pool().totalFree() < job.numGpus()) {
                continue;
            }
            Optional<Placement> target = placer.place(job, alloc.pool(), Layer.FREE, true);
            if (target.isPresent() && target.get().nodes() < nodesOf(job.placement())) {
                alloc.migrate(job, target.get().gpus(), policy + ": de-fragment job " + job.id() + ": "
                                + nodesOf(job.placement()) + " nodes -> " + target.get().describe(),
                        Text.details("fromNodes", Integer.toString(nodesOf(job.placement())),
                                "toNodes", Integer.toString(target.get().nodes())));
                moved++;
            }
        }
    }

    /**
     * The running multi-GPU jobs that want consolidation but are spread over more nodes than they need, alone on their
     * GPUs, not being checked after a move and not acted on in this pass: most spread first, then by arrival. Shared
     * with {@link MakeRoom#reconsolidate}.
     */
    static List<Job> spreadGangs(List<Job> running, Allocation alloc, Placer placer) {
        List<Job> spread = new ArrayList<>();
        for (Job job : running) {
            if (job.numGpus() > 1 && !job.isPacked() && job.placementChangedAt().isEmpty()
                    && !alloc.hasActed(job.id()) && placer.rule().prefersConsolidation(job)
                    && spreadBeyondNeed(job, alloc.cell())) {
                spread.add(job);
            }
        }
        spread.sort(Comparator.<Job>comparingInt(j -> -nodesOf(j.placement())).thenComparing(Ranking.byArrival()));
        return spread;
    }

    /**
     * True when a running job's GPUs span more servers than the fewest that could hold it. Shared with
     * {@link Packer#keepingLocality}, which asks it of a partner a gang would pack onto.
     */
    static boolean spreadBeyondNeed(Job job, CellIndex cell) {
        int perNode = Math.max(1, cell.maxPerNode(job.gpuType()));
        return nodesOf(job.placement()) > Math.ceilDiv(job.numGpus(), perNode);
    }

    /** The nodes a placement spans (its GPUs are sorted, so a node's GPUs are adjacent). */
    static int nodesOf(List<GpuId> gpus) {
        int nodes = 0;
        String last = null;
        for (GpuId g : gpus) {
            if (!g.nodeId().equals(last)) {
                nodes++;
                last = g.nodeId();
            }
        }
        return nodes;
    }
}
