package io.quanta.core.placement;

import io.quanta.core.model.GpuId;
import java.util.List;

/** A chosen set of GPUs for one job, with its spread (nodes, racks) and whether locality was relaxed. */
public record Placement(List<GpuId> gpus, int nodes, int racks, boolean relaxed) {

    public Placement {
        gpus = List.copyOf(gpus);
    }

    /** Short text for reasons, e.g. {@code "4 GPUs on 1 node"} or {@code "16 GPUs on 3 nodes in 2 racks, relaxed"}. */
    public String describe() {
        StringBuilder s = new StringBuilder().append(gpus.size()).append(gpus.size() == 1 ? " GPU on " : " GPUs on ")
                .append(nodes).append(nodes == 1 ? " node" : " nodes");
        if (racks > 1) {
            s.append(" in ").append(racks).append(" racks");
        }
        if (relaxed) {
            s.append(", relaxed");
        }
        return s.toString();
    }
}
