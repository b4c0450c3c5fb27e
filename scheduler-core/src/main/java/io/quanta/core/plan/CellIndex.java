package io.quanta.core.plan;

import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.Gpu;
import io.quanta.core.model.GpuId;
import io.quanta.core.model.Job;
import io.quanta.core.model.JobState;
import io.quanta.core.model.Node;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Read-only index of one snapshot, built once per pass: nodes by position (sorted by id), racks, per-node bit masks
 * of usable, free and soon-free GPUs (held only by SUSPENDING jobs), GPU models, and jobs by id. Internal to policies.
 */
public final class CellIndex {

    private final ClusterSnapshot snapshot;
    private final String[] nodeIds;
    private final Map<String, Integer> nodeIndex;
    private final int[] rackOf;
    private final int rackCount;
    private final long[] usable;
    private final long[] free;
    private final long[] soonFree;
    private final Gpu[][] gpus;
    private final Map<String, long[]> modelMasks;
    private final Map<String, Integer> maxPerNodeByModel;
    private final Map<String, Integer> totalByModel;
    private final int maxPerNode;
    private final int totalGpus;
    private final Map<String, Job> jobs;

    public CellIndex(ClusterSnapshot snapshot) {
        this.snapshot = snapshot;
        List<Node> nodes = snapshot.nodes();
        int n = nodes.size();
        this.nodeIds = new String[n];
        this.nodeIndex = new HashMap<>(n * 2);
        this.rackOf = new int[n];
        this.usable = new long[n];
        this.free = new long[n];
        this.soonFree = new long[n];
        this.gpus = new Gpu[n][];
        this.jobs = new HashMap<>(snapshot.jobs().size() * 2);
        for (Job j : snapshot.jobs()) {
            jobs.put(j.id(), j);
        }
        Map<String, Integer> racks = new TreeMap<>();
        for (Node node : nodes) {
            racks.putIfAbsent(node.rack(), 0);
        }
        int r = 0;
        for (Map.Entry<String, Integer> e : racks.entrySet()) {
            e.setValue(r++);
        }
        this.rackCount = racks.size();
        Map<String, long[]> masks = new TreeMap<>();
        Map<String, Integer> maxByModel = new HashMap<>();
        Map<String, Integer> totals = new HashMap<>();
        int max = 0;
        int total = 0;
        for (int i = 0; i < n; i++) {
            Node node = nodes.get(i);
            nodeIds[i] = node.id();
            nodeIndex.put(node.id(), i);
            rackOf[i] = racks.get(node.rack());
            gpus[i] = new Gpu[Gpu.MAX_INDEX + 1];
            Map<String, Integer> perModel = new HashMap<>();
            for (Gpu g : node.gpus()) {
                gpus[i][g.index()] = g;
                long bit = 1L << g.index();
                masks.computeIfAbsent(g.model(), k -> new long[n])[i] |= bit;
                perModel.merge(g.model(), 1, Integer::sum);
                totals.merge(g.model(), 1, Integer::sum);
                if (node.alive() && g.healthy()) {
                    usable[i] |= bit;
                    if (g.unoccupied()) {
                        free[i] |= bit;
                    } else if (onlySuspending(g, new GpuId(node.id(), g.index()))) {
                        soonFree[i] |= bit;
                    }
                }
            }
            perModel.forEach((m, c) -> maxByModel.merge(m, c, Math::max));
            max = Math.max(max, node.gpus().size());
            total += node.gpus().size();
        }
        this.modelMasks = masks;
        this.maxPerNodeByModel = maxByModel;
        this.totalByModel = totals;
        this.maxPerNode = max;
        this.totalGpus = total;
    }

    private boolean onlySuspending(Gpu g, GpuId id) {
        for (String jobId : g.jobIds()) {
            Job j = jobs.get(jobId);
            if (j == null || j.state() != JobState.SUSPENDING || !j.placement().contains(id)
                    || j.reservedGpus().contains(id)) {
                return false;
            }
        }
        return true;
    }

    public ClusterSnapshot snapshot() {
        return snapshot;
    }

    public int nodeCount() {
        return nodeIds.length;
    }

    public String nodeId(int node) {
        return nodeIds[node];
    }

    /** Position of a node id, or -1 when the node is not in the snapshot. */
    public int nodeIndex(String nodeId) {
        Integer i = nodeIndex.get(nodeId);
        return i == null ? -1 : i;
    }

    public int rackOf(int node) {
        return rackOf[node];
    }

    public int rackCount() {
        return rackCount;
    }

    public long usable(int node) {
        return usable[node];
    }

    public long free(int node) {
        return free[node];
    }

    public long soonFree(int node) {
        return soonFree[node];
    }

    /** The GPU at an id, or empty when the node or index does not exist. */
    public Optional<Gpu> gpu(GpuId id) {
        int node = nodeIndex(id.nodeId());
        return node < 0 ? Optional.empty() : Optional.ofNullable(gpus[node][id.index()]);
    }

    /** True when the GPU exists, its node is alive and it is healthy. */
    public boolean isUsable(GpuId id) {
        int node = nodeIndex(id.nodeId());
        return node >= 0 && (usable[node] & (1L << id.index())) != 0;
    }

    /** Mask of the GPUs of one model on a node (all GPUs when {@code model} is empty). */
    public long modelMask(Optional<String> model, int node) {
        if (model.isEmpty()) {
            return -1L;
        }
        long[] masks = modelMasks.get(model.get());
        return masks == null ? 0L : masks[node];
    }

    /** Most GPUs of a model (or of any model) on one node: the cell's consolidation unit. */
    public int maxPerNode(Optional<String> model) {
        return model.map(m -> maxPerNodeByModel.getOrDefault(m, 0)).orElse(maxPerNode);
    }

    /** All GPUs of the cell of a model (or of any model), whatever their health. */
    public int totalGpus(Optional<String> model) {
        return model.map(m -> totalByModel.getOrDefault(m, 0)).orElse(totalGpus);
    }

    public Job job(String id) {
        return jobs.get(id);
    }

    public GpuId gpuId(int node, int index) {
        return new GpuId(nodeIds[node], index);
    }
}
