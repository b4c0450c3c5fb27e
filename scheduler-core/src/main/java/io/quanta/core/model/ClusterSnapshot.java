package io.quanta.core.model;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Immutable view of one cell at stream time {@code now}, the only input of a scheduling pass: nodes (sorted by id),
 * jobs (sorted by id; terminal jobs may be present and are ignored), and the learned memory the policies need
 * (completed-job service distribution, interference memory). Same snapshot in, same decisions out. The jobs are
 * kept as a {@link JobList}: given one, the snapshot uses it as it is (its order is checked as it is made).
 */
public record ClusterSnapshot(
        Instant now,
        List<Node> nodes,
        List<Job> jobs,
        ServiceDistribution serviceDistribution,
        InterferenceMemory interferenceMemory) {

    /** Capacity of the default (empty) service distribution. */
    public static final int DEFAULT_DISTRIBUTION_CAPACITY = 1024;
    /** Capacity of the default (empty) interference memory. */
    public static final int DEFAULT_INTERFERENCE_CAPACITY = 4096;

    public ClusterSnapshot {
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(serviceDistribution, "serviceDistribution");
        Objects.requireNonNull(interferenceMemory, "interferenceMemory");
        int nodeCount = nodes.size();
        int jobCount = jobs.size();
        nodes = SortedLists.byKey(nodes, Node::id);
        jobs = JobList.of(jobs);
        if (nodes.size() != nodeCount) {
            throw new IllegalArgumentException("a node id appears twice in the snapshot");
        }
        if (jobs.size() != jobCount) {
            throw new IllegalArgumentException("a job id appears twice in the snapshot");
        }
    }

    /** A snapshot with empty learned memory (default capacities). */
    public static ClusterSnapshot of(Instant now, List<Node> nodes, List<Job> jobs) {
        return new ClusterSnapshot(now, nodes, jobs,
                ServiceDistribution.empty(DEFAULT_DISTRIBUTION_CAPACITY, 0L),
                InterferenceMemory.empty(DEFAULT_INTERFERENCE_CAPACITY));
    }

    /** The same snapshot (time, nodes, memory) with another job list. */
    public ClusterSnapshot withJobs(List<Job> newJobs) {
        return new ClusterSnapshot(now, nodes, newJobs, serviceDistribution, interferenceMemory);
    }

    /** Jobs by id, in id order. */
    public Map<String, Job> jobsById() {
        Map<String, Job> map = new LinkedHashMap<>(jobs.size() * 2);
        for (Job j : jobs) {
            map.put(j.id(), j);
        }
        return Collections.unmodifiableMap(map);
    }

    /** Nodes by id, in id order. */
    public Map<String, Node> nodesById() {
        Map<String, Node> map = new LinkedHashMap<>(nodes.size() * 2);
        for (Node n : nodes) {
            map.put(n.id(), n);
        }
        return Collections.unmodifiableMap(map);
    }

    /** The job with this id, if present. */
    public Optional<Job> job(String id) {
        int lo = 0;
        int hi = jobs.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = jobs.get(mid).id().compareTo(id);
            if (c == 0) {
                return Optional.of(jobs.get(mid));
            }
            if (c < 0) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return Optional.empty();
    }

    /** Total number of GPUs in the cell, whatever their health. */
    public int totalGpus() {
        int total = 0;
        for (Node n : nodes) {
            total += n.gpus().size();
        }
        return total;
    }
}
