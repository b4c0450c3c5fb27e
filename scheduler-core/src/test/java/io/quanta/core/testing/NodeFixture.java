package io.quanta.core.testing;

import io.quanta.core.model.Gpu;
import io.quanta.core.model.Node;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Fluent builder of a {@link Node}; GPU occupancy is filled in by {@link SnapshotFixture} from the jobs. */
public final class NodeFixture {
    private final String id;
    private String rack = "r1";
    private boolean alive = true;
    private int gpus = 8;
    private String model = "V100";
    private long memoryMiB = 32_768;
    private final Set<Integer> unhealthy = new TreeSet<>();

    NodeFixture(String id) {
        this.id = id;
    }

    public NodeFixture rack(String v) { this.rack = v; return this; }
    public NodeFixture gpus(int v) { this.gpus = v; return this; }
    public NodeFixture model(String v) { this.model = v; return this; }
    public NodeFixture memoryMiB(long v) { this.memoryMiB = v; return this; }
    public NodeFixture dead() { this.alive = false; return this; }
    public NodeFixture unhealthy(int... indices) { for (int i : indices) { unhealthy.add(i); } return this; }

    public String id() {
        return id;
    }

    /** The node with no job on any GPU. */
    public Node build() {
        List<Gpu> list = new ArrayList<>();
        for (int i = 0; i < gpus; i++) {
            list.add(new Gpu(i, model, memoryMiB, !unhealthy.contains(i), List.of()));
        }
        return new Node(id, rack, alive, list);
    }
}
