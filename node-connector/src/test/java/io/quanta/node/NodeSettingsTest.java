package io.quanta.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.config.ConfigSections;
import io.quanta.topics.config.QuantaConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class NodeSettingsTest {

    private static QuantaConfig config(Map<String, String> values) {
        return QuantaConfig.builder().sections(TopicCatalogue.configSections().with(new NodeConfigSection()))
                .overrides(values).build();
    }

    @Test
    void shouldReadEveryNodeSettingWhenGiven() {
        NodeSettings s = NodeSettings.from(config(Map.of("node.id", "gpu-7", "node.cell", "c2", "node.rack", "r3",
                "node.backend", "simulated", "node.gpus", "4", "node.gpu.model", "A100",
                "node.work.dir", "/tmp/quanta-x", "node.heartbeat.interval.ms", "1000", "node.sim.speed", "600",
                "node.sim.throughput.model", "tiresias-compatible")));

        assertThat(s.nodeId()).isEqualTo("gpu-7");
        assertThat(s.cellId()).isEqualTo("c2");
        assertThat(s.rack()).isEqualTo("r3");
        assertThat(s.backend()).isEqualTo(NodeSettings.Backend.SIMULATED);
        assertThat(s.gpus()).isEqualTo(4);
        assertThat(s.gpuModel()).isEqualTo("A100");
        assertThat(s.workDir()).isEqualTo(Path.of("/tmp/quanta-x"));
        assertThat(s.heartbeatInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(s.simSpeed()).isEqualTo(600.0);
        assertThat(s.throughputModel()).isEqualTo("tiresias-compatible");
    }

    @Test
    void shouldUseDocumentedDefaultsWhenNothingIsGiven() {
        NodeSettings s = NodeSettings.from(config(Map.of("node.id", "n1")));

        assertThat(s.backend()).isEqualTo(NodeSettings.Backend.PROCESS);
        assertThat(s.heartbeatInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(s.suspendDeadline()).isEqualTo(Duration.ofSeconds(60));
        assertThat(s.telemetryWindow()).isEqualTo(Duration.ofSeconds(10));
        assertThat(s.workDir()).isEqualTo(Path.of(System.getProperty("user.home"), ".quanta", "nodes", "n1"));
        assertThat(s.cellId()).isEqualTo("cell-0");
        assertThat(s.attemptRetention()).isEqualTo(Duration.ofDays(7));
    }

    @Test
    void shouldDefaultTheNodeIdToTheHostName() {
        assertThat(NodeSettings.from(config(Map.of())).nodeId()).isNotBlank();
    }

    @Test
    void shouldRejectAnUnknownBackendOrAMistypedKey() {
        assertThatThrownBy(() -> config(Map.of("node.backend", "docker")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("node.backend");
        assertThatThrownBy(() -> config(Map.of("node.heartbeat.interval", "5")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("node.heartbeat.interval");
    }

    @Test
    void shouldBeFoundOnTheClassPathBySectionDiscovery() {
        assertThat(ConfigSections.discover().sections()).anyMatch(s -> s instanceof NodeConfigSection);
    }

    @Test
    void shouldFenceBeforeTheSchedulerDeclaresTheNodeLost() {
        assertThat(NodeSettings.from(config(Map.of("node.id", "n1"))).fenceTimeout())
                .isEqualTo(Duration.ofSeconds(20));
        // a node timeout set beside it caps the default at two thirds of it
        assertThat(NodeSettings.from(config(Map.of("node.id", "n1", "scheduler.node.timeout.ms", "9000",
                "node.heartbeat.interval.ms", "500"))).fenceTimeout()).isEqualTo(Duration.ofSeconds(6));
        assertThat(NodeSettings.from(config(Map.of("node.id", "n1", "scheduler.node.timeout.ms", "30000",
                "node.fence.timeout.ms", "25000"))).fenceTimeout()).isEqualTo(Duration.ofSeconds(25));
    }

    @Test
    void shouldRefuseAFenceTimeoutThatIsNotBelowTheNodeTimeoutOrShorterThanTwoHeartbeats() {
        assertThatThrownBy(() -> NodeSettings.from(config(Map.of("node.id", "n1", "scheduler.node.timeout.ms",
                "30000", "node.fence.timeout.ms", "30000"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("node.fence.timeout.ms=30000 must be below scheduler.node.timeout.ms=30000");
        assertThatThrownBy(() -> NodeSettings.from(config(Map.of("node.id", "n1", "node.fence.timeout.ms",
                "9000"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("two heartbeat intervals");
    }
}
