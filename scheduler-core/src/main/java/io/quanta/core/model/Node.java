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
        int before = gpus.size();
        gpus = SortedLists.of(gpus, Comparator.comparingInt(Gpu::index));
        if (gpus.size() != before) {
            throw new IllegalArgumentException("node " + id + " lists a GPU index twice");
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
