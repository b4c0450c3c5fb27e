package io.quanta.streams.cell;

import io.quanta.core.model.GpuId;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The GPUs one attempt of a job holds: its placement, the GPUs reserved for its restart after a migration, and which
 * nodes of the gang reported it STARTED. Exists from the START command until the attempt ends. An immutable value: a
 * change is a new record given to {@link CellState#putAssignment}, which keeps the GPU occupancy in step and marks it
 * for the assignments store (which holds its serialized form, {@link StateCodecs}).
 *
 * @param gpus          the placement, sorted
 * @param reserved      GPUs reserved as a migration target, sorted; empty unless migrating
 * @param startedNodes  the nodes that reported the attempt STARTED, sorted
 * @param commandedAtMs stream time the attempt's last START or SUSPEND went out; -1 when unknown (state written
 *                      before v2)
 */
public record AssignmentRecord(String jobId, int attempt, List<GpuId> gpus, List<GpuId> reserved,
                               List<String> startedNodes, long commandedAtMs) {

    public AssignmentRecord {
        gpus = sorted(gpus);
        reserved = sorted(reserved);
        startedNodes = List.copyOf(startedNodes);
    }

    /**
     * An immutable sorted copy that rejects nulls ({@code List.copyOf} then returns it as is: a snapshot's job view
     * takes it without copying again, which a {@code Stream.toList()} list, admitting nulls, would not allow).
     */
    private static List<GpuId> sorted(List<GpuId> gpus) {
        List<GpuId> copy = new ArrayList<>(gpus);
        copy.sort(null);
        return List.copyOf(copy);
    }

    /** A new attempt's assignment, commanded (START) at {@code nowMs}. */
    AssignmentRecord(String jobId, int attempt, List<GpuId> gpus, long nowMs) {
        this(jobId, attempt, gpus, List.of(), List.of(), nowMs);
    }

    /** The placement, sorted (the record's {@code gpus}). */
    public List<GpuId> placement() {
        return gpus;
    }

    /** GPUs reserved as a migration target, sorted; empty unless migrating. */
    public List<GpuId> reservedGpus() {
        return reserved;
    }

    /** Nodes of the placement, sorted. */
    public List<String> nodes() {
        TreeSet<String> nodes = new TreeSet<>();
        for (GpuId gpu : gpus) {
            nodes.add(gpu.nodeId());
        }
        return List.copyOf(nodes);
    }

    /** True when the placement uses a GPU of {@code nodeId}. */
    boolean runsOn(String nodeId) {
        for (GpuId gpu : gpus) {
            if (gpu.nodeId().equals(nodeId)) {
                return true;
            }
        }
        return false;
    }

    /** Every GPU the attempt occupies or reserves. */
    List<GpuId> occupied() {
        if (reserved.isEmpty()) {
            return gpus;
        }
        List<GpuId> all = new ArrayList<>(gpus);
        all.addAll(reserved);
        return all;
    }

    /** The same attempt with these GPUs reserved (empty: none). */
    AssignmentRecord withReserved(List<GpuId> newReserved) {
        return new AssignmentRecord(jobId, attempt, gpus, newReserved, startedNodes, commandedAtMs);
    }

    /** The same attempt, with a START or SUSPEND sent at {@code nowMs}. */
    AssignmentRecord commandedAt(long nowMs) {
        return new AssignmentRecord(jobId, attempt, gpus, reserved, startedNodes, nowMs);
    }

    /** The same attempt, reported STARTED by {@code nodeId} too. */
    AssignmentRecord startedOn(String nodeId) {
        TreeSet<String> started = new TreeSet<>(startedNodes);
        started.add(nodeId);
        return new AssignmentRecord(jobId, attempt, gpus, reserved, List.copyOf(started), commandedAtMs);
    }

    /** True when the same GPUs are held (placement and reservation). */
    boolean holdsSameGpus(AssignmentRecord other) {
        return gpus.equals(other.gpus) && reserved.equals(other.reserved);
    }
}
