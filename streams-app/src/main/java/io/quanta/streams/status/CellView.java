package io.quanta.streams.status;

import io.quanta.core.model.GpuId;
import io.quanta.core.model.JobState;
import io.quanta.streams.cell.AssignmentRecord;
import io.quanta.streams.cell.CellMeta;
import io.quanta.streams.cell.JobRecord;
import io.quanta.streams.cell.NodeRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A read-only picture of one cell assembled from its stores (active jobs, nodes, assignments, meta) for the status
 * API: GPU occupancy, free GPUs, queue lengths and the reason a queued job waits. Computed per query, never cached.
 *
 * @param cellId      the cell
 * @param meta        the cell's meta (null when the cell has no meta yet)
 * @param jobs        active jobs by id
 * @param nodes       nodes by id
 * @param assignments assignments by job id
 */
public record CellView(String cellId, CellMeta meta, SortedMap<String, JobRecord> jobs,
                       SortedMap<String, NodeRecord> nodes, SortedMap<String, AssignmentRecord> assignments) {

    /** The cell's stream time, -1 when unknown. */
    public long timeMs() {
        return meta == null ? -1 : meta.timeMs();
    }

    /** Jobs occupying or reserving each GPU. */
    public Map<GpuId, List<String>> occupancy() {
        Map<GpuId, List<String>> out = new HashMap<>();
        for (AssignmentRecord a : assignments.values()) {
            List<GpuId> gpus = new ArrayList<>(a.placement());
            gpus.addAll(a.reservedGpus());
            for (GpuId gpu : gpus) {
                out.computeIfAbsent(gpu, g -> new ArrayList<>()).add(a.jobId());
            }
        }
        return out;
    }

    /** Free GPUs (alive node, healthy, unoccupied) of the required model (null = any). */
    public int freeGpus(String model) {
        Map<GpuId, List<String>> occupied = occupancy();
        int free = 0;
        for (NodeRecord node : nodes.values()) {
            for (NodeRecord.GpuRecord gpu : node.gpus()) {
                boolean fits = model == null || model.equals(gpu.model());
                if (fits && node.alive() && gpu.healthy() && !occupied.containsKey(new GpuId(node.nodeId(), gpu.index()))) {
                    free++;
                }
            }
        }
        return free;
    }

    /** All GPUs of the cell (whatever their state). */
    public int totalGpus() {
        return nodes.values().stream().mapToInt(n -> n.gpus().size()).sum();
    }

    /** Queued jobs per queue level, levels ascending. */
    public SortedMap<Integer, Integer> queueLengths() {
        SortedMap<Integer, Integer> out = new TreeMap<>();
        for (JobRecord job : jobs.values()) {
            if (job.state() == JobState.QUEUED) {
                out.merge(job.queueLevel(), 1, Integer::sum);
            }
        }
        return out;
    }

    /** Number of active jobs in a state. */
    public long count(JobState state) {
        return jobs.values().stream().filter(j -> j.state() == state).count();
    }

    /**
     * Why a queued job waits: its queue and waiting time, how many queued jobs of the same or a higher-priority
     * queue arrived before it, and the GPUs it needs against the GPUs free now. Empty text for other states.
     */
    public String whyWaiting(JobRecord job) {
        if (job.state() != JobState.QUEUED) {
            return "";
        }
        long ahead = jobs.values().stream().filter(j -> j.state() == JobState.QUEUED
                && j.queueLevel() <= job.queueLevel() && j.arrivalSeq() < job.arrivalSeq()).count();
        long waited = job.queuedSinceMs() < 0 || timeMs() < 0 ? 0 : (timeMs() - job.queuedSinceMs()) / 1000;
        String type = job.gpuType() == null ? "" : " of type " + job.gpuType();
        int free = freeGpus(job.gpuType());
        String gpus = nodes.isEmpty() ? "the cell has no nodes yet"
                : "the cell has " + free + " free GPU" + (free == 1 ? "" : "s") + type + " of " + totalGpus();
        return "queued at level " + job.queueLevel() + " for " + waited + " s; " + ahead
                + " queued job(s) at the same or a higher level arrived earlier; needs " + job.numGpus() + " GPU"
                + (job.numGpus() == 1 ? "" : "s") + type + ", " + gpus + "; last transition: " + job.reason();
    }

    /** Nodes of the cell that hold the job's GPUs, sorted. */
    public List<String> nodesOf(String jobId) {
        AssignmentRecord a = assignments.get(jobId);
        return a == null ? List.of() : new ArrayList<>(new TreeSet<>(a.nodes()));
    }
}
