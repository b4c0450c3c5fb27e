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
import java.util.TreeSet;

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
    private Map<String, Job> jobs;

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
        Map<String, Integer> racks = rackNumbers(nodes);
        this.rackCount = racks.size();
        Map<String, long[]> masks = new HashMap<>();
        Map<String, Integer> maxByModel = new HashMap<>();
        Map<String, Integer> totals = new HashMap<>();
        int max = 0;
        int total = 0;
        for (int i = 0; i < n; i++) {
            Node node = nodes.get(i);
            nodeIds[i] = node.id();
            nodeIndex.put(node.id(), i);
            rackOf[i] = racks.get(node.rack());
            List<Gpu> nodeGpus = node.gpus();
            gpus[i] = new Gpu[nodeGpus.isEmpty() ? 0 : nodeGpus.get(nodeGpus.size() - 1).index() + 1];
            String lastModel = null;
            long[] lastMasks = null;
            for (Gpu g : node.gpus()) {
                gpus[i][g.index()] = g;
                long bit = 1L << g.index();
                if (!g.model().equals(lastModel)) {
                    lastModel = g.model();
                    lastMasks = masks.computeIfAbsent(lastModel, k -> new long[n]);
                }
                lastMasks[i] |= bit;
                if (node.alive() && g.healthy()) {
                    usable[i] |= bit;
                    if (g.unoccupied()) {
                        free[i] |= bit;
                    }
                }
            }
            max = Math.max(max, node.gpus().size());
            total += node.gpus().size();
        }
        for (Job j : snapshot.jobs()) {
            if (j.state() == JobState.SUSPENDING) {
                markSoonFree(j);
            }
        }
        for (Map.Entry<String, long[]> e : masks.entrySet()) {
            int most = 0;
            int sum = 0;
            for (long mask : e.getValue()) {
                most = Math.max(most, Long.bitCount(mask));
                sum += Long.bitCount(mask);
            }
            maxByModel.put(e.getKey(), most);
            totals.put(e.getKey(), sum);
        }
        this.modelMasks = masks;
        this.maxPerNodeByModel = maxByModel;
        this.totalByModel = totals;
        this.maxPerNode = max;
        this.totalGpus = total;
    }

    /** Racks numbered in name order (rack ids sorted), looked up in a hash map: nodes usually share few racks. */
    private static Map<String, Integer> rackNumbers(List<Node> nodes) {
        TreeSet<String> names = new TreeSet<>();
        String last = null;
        for (Node node : nodes) {
            if (!node.rack().equals(last)) {
                last = node.rack();
                names.add(last);
            }
        }
        Map<String, Integer> numbers = new HashMap<>(names.size() * 2);
        for (String name : names) {
            numbers.put(name, numbers.size());
        }
        return numbers;
    }

    /** Marks the usable GPUs of a suspending job that only suspending jobs hold (not as a migration target). */
    private void markSoonFree(Job suspending) {
        for (GpuId id : suspending.placement()) {
            Integer node = nodeIndex.get(id.nodeId());
            Gpu g = node == null || id.index() >= gpus[node].length ? null : gpus[node][id.index()];
            if (g == null || (usable[node] & (1L << id.index())) == 0) {
                continue;
            }
            boolean onlySuspending = true;
            for (String jobId : g.jobIds()) {
                Job j = job(jobId);
                onlySuspending &= j != null && j.state() == JobState.SUSPENDING && j.placement().contains(id)
                        && !j.reservedGpus().contains(id);
            }
            if (onlySuspending) {
                soonFree[node] |= 1L << id.index();
            }
        }
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
        return Optional.ofNullable(gpuOrNull(id));
    }

    /** The GPU, or null when its node or index is unknown (for hot loops; {@link #gpu} otherwise). */
    public Gpu gpuOrNull(GpuId id) {
        int node = nodeIndex(id.nodeId());
        return node < 0 || id.index() >= gpus[node].length ? null : gpus[node][id.index()];
    }

    /** Number of jobs listed on a GPU, or -1 when it does not exist. */
    public int occupants(GpuId id) {
        int node = nodeIndex(id.nodeId());
        if (node < 0 || id.index() >= gpus[node].length || gpus[node][id.index()] == null) {
            return -1;
        }
        return gpus[node][id.index()].jobIds().size();
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
        return model.isEmpty() ? maxPerNode : maxPerNodeByModel.getOrDefault(model.get(), 0);
    }

    /** All GPUs of the cell of a model (or of any model), whatever their health. */
    public int totalGpus(Optional<String> model) {
        return model.isEmpty() ? totalGpus : totalByModel.getOrDefault(model.get(), 0);
    }

    public Job job(String id) {
        if (jobs == null) {
            jobs = new HashMap<>(snapshot.jobs().size() * 2);
            for (Job j : snapshot.jobs()) {
                jobs.put(j.id(), j);
            }
        }
        return jobs.get(id);
    }

    public GpuId gpuId(int node, int index) {
        return new GpuId(nodeIds[node], index);
    }
}
