package io.quanta.streams.cell;

import io.quanta.core.model.GpuId;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The GPUs one attempt of a job holds: its placement, the GPUs reserved for its restart after a migration, and which
 * nodes of the gang reported it STARTED. Exists from the START command until the attempt ends. Mutable working copy;
 * the assignments store holds its serialized form.
 */
public final class AssignmentRecord {

    String jobId;
    int attempt;
    List<String> gpus = new ArrayList<>();
    List<String> reserved = new ArrayList<>();
    List<String> startedNodes = new ArrayList<>();
    /** Stream time the attempt's last START or SUSPEND went out; -1 when unknown (state written before v2). */
    long commandedAtMs = -1;
    private transient List<GpuId> placementCache;
    private transient List<GpuId> reservedCache;
    private transient List<String> nodesCache;

    AssignmentRecord() {
    }

    AssignmentRecord(String jobId, int attempt, List<GpuId> gpus) {
        this.jobId = jobId;
        this.attempt = attempt;
        this.gpus = gpus.stream().sorted().map(GpuId::toString).toList();
    }

    public String jobId() {
        return jobId;
    }

    public int attempt() {
        return attempt;
    }

    /** The placement, sorted (a null-hostile immutable list, which {@code List.copyOf} returns as is). */
    public List<GpuId> placement() {
        if (placementCache == null) {
            placementCache = List.copyOf(gpus.stream().map(GpuId::parse).sorted().toList());
        }
        return placementCache;
    }

    /** GPUs reserved as a migration target, sorted; empty unless migrating. */
    public List<GpuId> reservedGpus() {
        if (reservedCache == null) {
            reservedCache = List.copyOf(reserved.stream().map(GpuId::parse).sorted().toList());
        }
        return reservedCache;
    }

    /** Nodes of the placement, sorted. */
    public List<String> nodes() {
        if (nodesCache == null) {
            nodesCache = List.copyOf(new TreeSet<>(placement().stream().map(GpuId::nodeId).toList()));
        }
        return nodesCache;
    }

    /** True when the placement or the reservation uses a GPU of {@code nodeId}. */
    boolean touches(String nodeId) {
        return placement().stream().anyMatch(g -> g.nodeId().equals(nodeId))
                || reservedGpus().stream().anyMatch(g -> g.nodeId().equals(nodeId));
    }

    void setReserved(List<GpuId> value) {
        reserved = value.stream().sorted().map(GpuId::toString).toList();
        reservedCache = null;
    }

    /** Every GPU the attempt occupies or reserves. */
    List<GpuId> occupied() {
        if (reserved.isEmpty()) {
            return placement();
        }
        List<GpuId> all = new ArrayList<>(placement());
        all.addAll(reservedGpus());
        return all;
    }
}
