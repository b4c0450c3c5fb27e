package io.quanta.sim.cluster;

import io.quanta.node.model.ThroughputModel;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.NodeCommand;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Every simulated node of a cluster shape, with an index of their next event times so that the event loop finds the
 * next due node in O(log n) and only advances the nodes that have something due (the others integrate their progress
 * lazily when next touched). Nodes touched since the last {@link #drainTouched()} are remembered for telemetry.
 */
public final class SimulatedFleet {

    private final ClusterShape shape;
    private final Map<String, SimulatedNode> nodes = new TreeMap<>();
    private final NavigableSet<Due> due = new TreeSet<>();
    private final Map<String, Instant> dueOf = new HashMap<>();
    private final SortedSet<String> touched = new TreeSet<>();

    private record Due(Instant at, String nodeId) implements Comparable<Due> {
        @Override
        public int compareTo(Due o) {
            int c = at.compareTo(o.at);
            return c != 0 ? c : nodeId.compareTo(o.nodeId);
        }
    }

    /**
     * @param shape the cluster
     * @param cellId the cell every node declares
     * @param gpuModel GPU model of every node
     * @param model the throughput model of the fidelity mode
     * @param clock the simulation's clock
     */
    public SimulatedFleet(ClusterShape shape, String cellId, String gpuModel, ThroughputModel model,
                          VirtualClock clock) {
        this.shape = shape;
        for (int r = 0; r < shape.racks(); r++) {
            for (int s = 0; s < shape.serversPerRack(); s++) {
                String id = ClusterShape.nodeId(r, s);
                nodes.put(id, new SimulatedNode(id, ClusterShape.rackId(r), cellId, shape.gpusPerServer(), gpuModel,
                        model, clock));
            }
        }
    }

    /** The cluster shape. */
    public ClusterShape shape() {
        return shape;
    }

    /** Every node, sorted by id. */
    public Collection<SimulatedNode> nodes() {
        return nodes.values();
    }

    /** A node by id, if it exists. */
    public Optional<SimulatedNode> node(String nodeId) {
        return Optional.ofNullable(nodes.get(nodeId));
    }

    /** The earliest next event over all nodes. */
    public Optional<Instant> nextEventTime() {
        return due.isEmpty() ? Optional.empty() : Optional.of(due.first().at());
    }

    /** Advances every node with an event due at or before {@code t} to {@code t}. */
    public void advanceDueTo(Instant t) {
        while (!due.isEmpty() && !due.first().at().isAfter(t)) {
            String id = due.first().nodeId();
            nodes.get(id).advanceTo(t);
            reindex(id);
        }
    }

    /**
     * Applies a command to its node at {@code now}; a command for an unknown node is returned as not applied.
     *
     * @return whether a node took the command
     */
    public boolean apply(NodeCommand command, Instant now) {
        SimulatedNode node = nodes.get(command.getNodeId());
        if (node == null) {
            return false;
        }
        node.apply(command, now);
        reindex(node.nodeId());
        return true;
    }

    /** The events produced by the touched nodes since the last call, node by node in id order. */
    public List<JobEvent> drainEvents() {
        List<JobEvent> out = new ArrayList<>();
        for (String id : touched) {
            out.addAll(nodes.get(id).drainEvents());
        }
        return out;
    }

    /** The ids of the nodes advanced or commanded since the last call, sorted; clears the set. */
    public List<String> drainTouched() {
        List<String> out = List.copyOf(touched);
        touched.clear();
        return out;
    }

    private void reindex(String id) {
        touched.add(id);
        Instant old = dueOf.remove(id);
        if (old != null) {
            due.remove(new Due(old, id));
        }
        nodes.get(id).nextEventTime().ifPresent(t -> {
            dueOf.put(id, t);
            due.add(new Due(t, id));
        });
    }
}
