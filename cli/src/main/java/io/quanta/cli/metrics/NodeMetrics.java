package io.quanta.cli.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.quanta.node.NodeConnector;
import io.quanta.schemas.RunningAttempt;
import java.util.HashSet;
import java.util.Set;

/**
 * Meters of one node connector, tagged with its node and cell: {@code quanta_node_gpus{state=busy|free}},
 * {@code quanta_node_attempts} (attempts holding GPUs) and {@code quanta_node_ready} (1 once heartbeats flow).
 */
public final class NodeMetrics {

    private NodeMetrics() {
    }

    /** Registers the meters of {@code connector} (its settings give the GPU count). */
    public static void bind(MeterRegistry registry, NodeConnector connector) {
        Tags tags = Tags.of("node", connector.settings().nodeId(), "cell", connector.settings().cellId());
        Gauge.builder("quanta.node.gpus", connector, c -> busy(c).size()).tags(tags).tag("state", "busy")
                .description("GPUs of this node running an attempt").register(registry);
        Gauge.builder("quanta.node.gpus", connector, c -> Math.max(0, c.settings().gpus() - busy(c).size()))
                .tags(tags).tag("state", "free").register(registry);
        Gauge.builder("quanta.node.attempts", connector, c -> c.running().size()).tags(tags)
                .description("Attempts holding GPUs on this node").register(registry);
        Gauge.builder("quanta.node.ready", connector, c -> c.isReady() ? 1 : 0).tags(tags)
                .description("1 when the node reads its commands and sends heartbeats").register(registry);
    }

    private static Set<Integer> busy(NodeConnector c) {
        Set<Integer> gpus = new HashSet<>();
        for (RunningAttempt r : c.running()) {
            gpus.addAll(r.getGpuIndices());
        }
        return gpus;
    }
}
