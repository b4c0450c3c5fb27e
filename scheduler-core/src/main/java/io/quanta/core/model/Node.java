package io.quanta.core.model;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * A server of the cell: its id, the rack (network domain) it belongs to, whether it is alive (heartbeats
 * arrive), and its GPUs sorted by index. GPUs of a dead node are never used for a placement.
 */
public record Node(String id, String rack, boolean alive, List<Gpu> gpus) {

    public Node {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(rack, "rack");
        gpus = gpus.stream().sorted(Comparator.comparingInt(Gpu::index)).toList();
        for (int i = 1; i < gpus.size(); i++) {
            if (gpus.get(i).index() == gpus.get(i - 1).index()) {
                throw new IllegalArgumentException("node " + id + " has GPU index " + gpus.get(i).index() + " twice");
            }
        }
    }

    /** Identity of the GPU with the given position in {@link #gpus()}. */
    public GpuId gpuId(Gpu gpu) {
        return new GpuId(id, gpu.index());
    }

    /** True when the GPU can take a new placement: node alive, GPU healthy and unoccupied. */
    public boolean isFree(Gpu gpu) {
        return alive && gpu.healthy() && gpu.unoccupied();
    }

    /** True when the GPU could ever be used: node alive and GPU healthy. */
    public boolean isUsable(Gpu gpu) {
        return alive && gpu.healthy();
    }
}
