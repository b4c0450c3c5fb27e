package io.quanta.core.model;

import java.util.List;
import java.util.Objects;

/**
 * One GPU of a node as the scheduler sees it.
 *
 * <p>{@code jobIds} lists, sorted, every job that occupies this GPU: running, starting, suspending from it, or
 * holding it reserved as the target of a migration. A GPU is free for a new placement only when it is
 * {@code healthy}, its node is alive and {@code jobIds} is empty. More than one id means the jobs are packed.
 */
public record Gpu(int index, String model, long memoryMiB, boolean healthy, List<String> jobIds) {

    /** Highest GPU index on a node (a node has at most 64 GPUs). */
    public static final int MAX_INDEX = 63;

    public Gpu {
        if (index < 0 || index > MAX_INDEX) {
            throw new IllegalArgumentException("GPU index must be in [0, " + MAX_INDEX + "], got " + index);
        }
        Objects.requireNonNull(model, "model");
        if (memoryMiB < 0) {
            throw new IllegalArgumentException("GPU memoryMiB must be >= 0, got " + memoryMiB);
        }
        jobIds = SortedLists.of(jobIds);
    }

    /** True when no job occupies or reserves this GPU (health is checked separately). */
    public boolean unoccupied() {
        return jobIds.isEmpty();
    }
}
