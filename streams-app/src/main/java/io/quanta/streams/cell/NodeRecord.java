package io.quanta.streams.cell;

import java.util.ArrayList;
import java.util.List;

/**
 * A node as its cell scheduler knows it: rack, connector epoch, liveness and GPUs (from the last heartbeat that
 * changed them). Mutable working copy; the nodes store holds its serialized form.
 */
public final class NodeRecord {

    /** One GPU of the node. */
    public record GpuRecord(int index, String model, long memoryMiB, boolean healthy, String error) {
    }

    String nodeId;
    String cellId;
    String rack;
    long epoch;
    boolean alive;
    long lastSeenMs;
    long registeredAtMs;
    List<GpuRecord> gpus = new ArrayList<>();

    NodeRecord() {
    }

    public String nodeId() {
        return nodeId;
    }

    public String cellId() {
        return cellId;
    }

    public String rack() {
        return rack;
    }

    public long epoch() {
        return epoch;
    }

    public boolean alive() {
        return alive;
    }

    public long lastSeenMs() {
        return lastSeenMs;
    }

    public List<GpuRecord> gpus() {
        return List.copyOf(gpus);
    }
}
