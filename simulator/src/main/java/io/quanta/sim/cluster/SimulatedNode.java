package io.quanta.sim.cluster;

import io.quanta.node.command.CommandHandler;
import io.quanta.node.command.InMemoryAttemptStore;
import io.quanta.node.gpu.GpuDevice;
import io.quanta.node.gpu.GpuModels;
import io.quanta.node.gpu.SimulatedGpuProbe;
import io.quanta.node.model.ThroughputModel;
import io.quanta.node.runner.AttemptId;
import io.quanta.node.runner.AttemptProgress;
import io.quanta.node.runner.SimulatedJobRunner;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeHeartbeat;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One simulated node: the node connector's own {@link CommandHandler} (epoch fencing, idempotence) in front of its
 * {@link SimulatedJobRunner} on virtual time, with a {@link SimulatedGpuProbe} for heartbeats. The simulator adds no
 * node behaviour of its own: it only moves virtual time and carries records.
 */
public final class SimulatedNode {

    /** Every simulated node runs this connector epoch (nodes never restart in a simulation). */
    public static final long EPOCH = 1L;

    private final String nodeId;
    private final String rack;
    private final String cellId;
    private final SimulatedJobRunner runner;
    private final CommandHandler handler;
    private final SimulatedGpuProbe probe;
    private final List<JobEvent> events = new ArrayList<>();

    /**
     * @param nodeId the node
     * @param rack its rack
     * @param cellId the cell it declares in its heartbeats
     * @param gpus number of GPUs
     * @param gpuModel GPU model name (memory from {@link GpuModels})
     * @param model the throughput model of the fidelity mode
     * @param clock the simulation's clock (timestamps of ignored-command events)
     */
    public SimulatedNode(String nodeId, String rack, String cellId, int gpus, String gpuModel, ThroughputModel model,
                         VirtualClock clock) {
        this.nodeId = nodeId;
        this.rack = rack;
        this.cellId = cellId;
        this.runner = new SimulatedJobRunner(nodeId, model, ClusterShape::rackOf, 1.0, clock.instant());
        this.handler = new CommandHandler(nodeId, EPOCH, runner, new InMemoryAttemptStore(), events::add, clock);
        this.probe = new SimulatedGpuProbe(nodeId, gpus, gpuModel,
                GpuModels.memoryMiB(gpuModel).orElse(GpuModels.DEFAULT_MEMORY_MIB), runner::gpuUsage);
        handler.recover();
    }

    /** The node id. */
    public String nodeId() {
        return nodeId;
    }

    /** When the runner's next event (completion, end of a suspend or resume) is due. */
    public Optional<Instant> nextEventTime() {
        return runner.nextEventTime();
    }

    /** Moves this node's virtual time to {@code t}; events due until then are queued for {@link #drainEvents()}. */
    public void advanceTo(Instant t) {
        runner.advanceTo(t);
    }

    /** Applies a command at virtual time {@code now} (the node is first advanced to it). */
    public void apply(NodeCommand command, Instant now) {
        runner.advanceTo(now);
        handler.handle(command);
    }

    /** The job events produced since the last call, in the order the connector published them. */
    public List<JobEvent> drainEvents() {
        if (events.isEmpty()) {
            return List.of();
        }
        List<JobEvent> out = List.copyOf(events);
        events.clear();
        return out;
    }

    /** The heartbeat this node's connector would send at {@code at}. */
    public NodeHeartbeat heartbeat(Instant at) {
        return NodeHeartbeat.newBuilder()
                .setNodeId(nodeId)
                .setCellId(cellId)
                .setRack(rack)
                .setEpoch(EPOCH)
                .setGpus(probe.probe().stream().map(GpuDevice::toGpuInfo).toList())
                .setRunning(handler.running())
                .setSentAt(at)
                .build();
    }

    /** Progress of the attempts present on this node. */
    public List<AttemptProgress> progress() {
        return runner.progress();
    }

    /** Current speed (fraction of full speed) of an attempt on this node. */
    public OptionalDouble speedOf(AttemptId id) {
        return runner.speedOf(id);
    }
}
