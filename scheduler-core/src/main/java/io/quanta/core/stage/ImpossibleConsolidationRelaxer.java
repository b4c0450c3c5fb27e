package io.quanta.core.stage;

import io.quanta.core.model.Job;
import io.quanta.core.placement.Placement;
import io.quanta.core.plan.Allocation;
import io.quanta.core.plan.CellIndex;
import io.quanta.core.plan.Layer;
import io.quanta.core.plan.Placer;
import io.quanta.core.plan.Text;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Allocation fallback: a job that must wait for a consolidated placement but could not get one even in an empty cell
 * (no rack holds its GPUs on the fewest nodes, e.g. a gang larger than a rack) starts at once on free GPUs anywhere,
 * instead of idling until its relaxation timeout for a placement that cannot exist. Jobs that could be consolidated
 * are left to the other steps.
 */
public final class ImpossibleConsolidationRelaxer implements FallbackStep {

    private final String policy;
    private final Placer placer;
    private final Map<String, Boolean> possible = new HashMap<>();

    public ImpossibleConsolidationRelaxer(String policy, Placer placer) {
        this.policy = policy;
        this.placer = placer;
    }

    @Override
    public boolean handle(Job waiting, Allocation alloc) {
        if (!placer.rule().mustConsolidate(waiting) || consolidationPossible(waiting, alloc.cell())) {
            return false;
        }
        Optional<Placement> placement = placer.place(waiting, alloc.pool(), Layer.FREE, false);
        if (placement.isEmpty()) {
            return false;
        }
        alloc.start(waiting, placement.get().gpus(), policy + ": start job " + waiting.id() + " on "
                        + placement.get().describe() + " without waiting for consolidation: no rack of the cell can hold "
                        + waiting.numGpus() + " GPUs on the fewest nodes",
                Text.details("placement", placement.get().describe(), "relaxed", "never-consolidated"));
        return true;
    }

    /** True when some rack could hold the job on the fewest nodes if the cell were empty (healthy GPUs only). */
    boolean consolidationPossible(Job job, CellIndex cell) {
        String key = job.numGpus() + "/" + job.gpuType().orElse("");
        return possible.computeIfAbsent(key, k -> computePossible(job, cell));
    }

    private static boolean computePossible(Job job, CellIndex cell) {
        int perNode = cell.maxPerNode(job.gpuType());
        if (perNode == 0) {
            return false;
        }
        int ideal = (job.numGpus() + perNode - 1) / perNode;
        List<List<Integer>> byRack = new ArrayList<>();
        for (int r = 0; r < cell.rackCount(); r++) {
            byRack.add(new ArrayList<>());
        }
        for (int node = 0; node < cell.nodeCount(); node++) {
            int count = Long.bitCount(cell.usable(node) & cell.modelMask(job.gpuType(), node));
            byRack.get(cell.rackOf(node)).add(count);
        }
        for (List<Integer> counts : byRack) {
            counts.sort((a, b) -> Integer.compare(b, a));
            int sum = 0;
            for (int i = 0; i < Math.min(ideal, counts.size()); i++) {
                sum += counts.get(i);
            }
            if (sum >= job.numGpus()) {
                return true;
            }
        }
        return false;
    }
}
