package io.quanta.core.testing;

import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.Gpu;
import io.quanta.core.model.GpuId;
import io.quanta.core.model.InterferenceMemory;
import io.quanta.core.model.Job;
import io.quanta.core.model.Node;
import io.quanta.core.model.ServiceDistribution;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Fluent builder of a {@link ClusterSnapshot}. It fills every GPU's job list from the jobs' placements and
 * reserved GPUs, so tests only describe jobs.
 */
public final class SnapshotFixture {
    private Instant now = Instant.ofEpochSecond(1_000_000);
    private final List<Node> nodes = new ArrayList<>();
    private final List<Job> jobs = new ArrayList<>();
    private ServiceDistribution distribution =
            ServiceDistribution.empty(ClusterSnapshot.DEFAULT_DISTRIBUTION_CAPACITY, 0L);
    private InterferenceMemory memory = InterferenceMemory.empty(ClusterSnapshot.DEFAULT_INTERFERENCE_CAPACITY);

    SnapshotFixture() {
    }

    public SnapshotFixture at(long epochSecond) { this.now = Instant.ofEpochSecond(epochSecond); return this; }
    public SnapshotFixture at(Instant t) { this.now = t; return this; }
    public SnapshotFixture distribution(ServiceDistribution d) { this.distribution = d; return this; }
    public SnapshotFixture interference(InterferenceMemory m) { this.memory = m; return this; }

    public SnapshotFixture nodes(NodeFixture... fixtures) {
        for (NodeFixture f : fixtures) {
            nodes.add(f.build());
        }
        return this;
    }

    public SnapshotFixture nodes(List<Node> list) {
        nodes.addAll(list);
        return this;
    }

    public SnapshotFixture jobs(JobFixture... fixtures) {
        for (JobFixture f : fixtures) {
            jobs.add(f.build());
        }
        return this;
    }

    public SnapshotFixture jobs(List<Job> list) {
        jobs.addAll(list);
        return this;
    }

    public ClusterSnapshot build() {
        return new ClusterSnapshot(now, occupy(nodes, jobs), jobs, distribution, memory);
    }

    /** Nodes whose GPU job lists reflect the placements and reservations of the non-terminal jobs. */
    public static List<Node> occupy(List<Node> nodes, List<Job> jobs) {
        Map<GpuId, List<String>> users = new TreeMap<>();
        for (Job j : jobs) {
            if (j.state().holdsGpus()) {
                j.placement().forEach(g -> users.computeIfAbsent(g, k -> new ArrayList<>()).add(j.id()));
                j.reservedGpus().forEach(g -> users.computeIfAbsent(g, k -> new ArrayList<>()).add(j.id()));
            }
        }
        List<Node> out = new ArrayList<>(nodes.size());
        for (Node n : nodes) {
            List<Gpu> gpus = new ArrayList<>(n.gpus().size());
            for (Gpu g : n.gpus()) {
                List<String> ids = users.getOrDefault(new GpuId(n.id(), g.index()), List.of());
                gpus.add(new Gpu(g.index(), g.model(), g.memoryMiB(), g.healthy(), ids));
            }
            out.add(new Node(n.id(), n.rack(), n.alive(), gpus));
        }
        return out;
    }
}
