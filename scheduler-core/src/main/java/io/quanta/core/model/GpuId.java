package io.quanta.core.model;

import java.util.Objects;

/**
 * Identity of one GPU in a cell: the node it sits in and its index on that node. Ordered by node id,
 * then index, which is the canonical order every policy uses to break ties between GPUs.
 */
public record GpuId(String nodeId, int index) implements Comparable<GpuId> {

    public GpuId {
        Objects.requireNonNull(nodeId, "nodeId");
        if (nodeId.isBlank()) {
            throw new IllegalArgumentException("GPU node id must not be blank");
        }
        if (index < 0 || index > Gpu.MAX_INDEX) {
            throw new IllegalArgumentException(
                    "GPU index must be in [0, " + Gpu.MAX_INDEX + "], got " + index + " on node " + nodeId);
        }
    }

    /** Parses the canonical rendering {@code node/index} produced by {@link #toString()}. */
    public static GpuId parse(String text) {
        int slash = text.lastIndexOf('/');
        if (slash <= 0 || slash == text.length() - 1) {
            throw new IllegalArgumentException("GPU id must look like 'node/index', got '" + text + "'");
        }
        return new GpuId(text.substring(0, slash), Integer.parseInt(text.substring(slash + 1)));
    }

    @Override
    public int compareTo(GpuId other) {
        int byNode = nodeId.compareTo(other.nodeId);
        return byNode != 0 ? byNode : Integer.compare(index, other.index);
    }

    /** Canonical rendering {@code node/index}, e.g. {@code n1/3}. */
    @Override
    public String toString() {
        return nodeId + "/" + index;
    }
}
