package io.quanta.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;

class NodePartitionTest {

    @Test
    void shouldPickThePartitionTheDefaultProducerPartitionerPicksForTheNodeKey() {
        for (int partitions : new int[] {1, 3, 7, 12, 64}) {
            for (int i = 0; i < 500; i++) {
                String node = "gpu-node-" + i;
                assertThat(NodePartition.of(node, partitions)).as(node + " of " + partitions)
                        .isEqualTo(BuiltInPartitioner.partitionForKey(node.getBytes(StandardCharsets.UTF_8),
                                partitions));
            }
        }
    }

    @Test
    void shouldRejectATopicWithoutPartitions() {
        assertThatThrownBy(() -> NodePartition.of("n1", 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
