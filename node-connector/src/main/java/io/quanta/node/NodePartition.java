package io.quanta.node;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Utils;

/**
 * The partition of the commands topic that holds a node's commands: where Kafka's default partitioner puts records
 * keyed by the node id ({@code toPositive(murmur2(utf8(nodeId))) % partitions}).
 */
public final class NodePartition {

    private NodePartition() {
    }

    /** The partition of {@code nodeId} among {@code partitions}. */
    public static int of(String nodeId, int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1, got " + partitions);
        }
        return Utils.toPositive(Utils.murmur2(nodeId.getBytes(StandardCharsets.UTF_8))) % partitions;
    }
}
