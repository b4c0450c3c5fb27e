package io.quanta.streams.cell;

import java.util.List;

/**
 * A node as its cell scheduler knows it: rack, connector epoch, liveness and GPUs (from the last heartbeat that
 * changed them). An immutable value: a change is a new record given to {@link CellState#putNode}, which is what
 * marks it for the nodes store (which holds its serialized form, {@link StateCodecs}).
 *
 * @param lastSeenMs     the largest timestamp of the node's heartbeats (stream time)
 * @param registeredAtMs the cell's stream time when the node joined
 * @param gpus           by index
 */
public record NodeRecord(String nodeId, String cellId, String rack, long epoch, boolean alive, long lastSeenMs,
                         long registeredAtMs, List<GpuRecord> gpus) {

    /** One GPU of the node. */
    public record GpuRecord(int index, String model, long memoryMiB, boolean healthy, String error) {
    }

    public NodeRecord {
        gpus = List.copyOf(gpus);
    }

    /** The same node heard from at {@code ms}. */
    NodeRecord seenAt(long ms) {
        return new NodeRecord(nodeId, cellId, rack, epoch, alive, ms, registeredAtMs, gpus);
    }

    /** The node alive (or lost), under connector incarnation {@code newEpoch}. */
    NodeRecord with(long newEpoch, boolean isAlive) {
        return new NodeRecord(nodeId, cellId, rack, newEpoch, isAlive, lastSeenMs, registeredAtMs, gpus);
    }

    /** The node with this rack and these GPUs. */
    NodeRecord withHardware(String newRack, List<GpuRecord> newGpus) {
        return new NodeRecord(nodeId, cellId, newRack, epoch, alive, lastSeenMs, registeredAtMs, newGpus);
    }
}
