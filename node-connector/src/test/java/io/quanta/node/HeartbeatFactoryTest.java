package io.quanta.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.node.gpu.GpuDevice;
import io.quanta.node.gpu.GpuProbe;
import io.quanta.node.gpu.GpuProbeException;
import io.quanta.schemas.GpuInfo;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.schemas.RunningAttempt;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class HeartbeatFactoryTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final List<GpuDevice> GPUS = List.of(GpuDevice.healthy(0, "u0", "T4", 15_360, 0, 0),
            GpuDevice.healthy(1, "u1", "T4", 15_360, 9_000, 100));

    private final AtomicBoolean broken = new AtomicBoolean();
    private final GpuProbe probe = new GpuProbe() {
        @Override
        public List<GpuDevice> probe() {
            if (broken.get()) {
                throw new GpuProbeException("nvidia-smi failed with exit code 9");
            }
            return GPUS;
        }

        @Override
        public String describe() {
            return "fake";
        }
    };

    @Test
    void shouldDescribeTheNodeItsGpusAndWhatRuns() {
        HeartbeatFactory factory = new HeartbeatFactory("n1", "c1", "r1", 42, probe, GPUS);
        List<RunningAttempt> running = List.of(new RunningAttempt("j1", 1, List.of(1)));

        NodeHeartbeat beat = factory.heartbeat(running, NOW);

        assertThat(beat.getNodeId()).isEqualTo("n1");
        assertThat(beat.getCellId()).isEqualTo("c1");
        assertThat(beat.getRack()).isEqualTo("r1");
        assertThat(beat.getEpoch()).isEqualTo(42);
        assertThat(beat.getSentAt()).isEqualTo(NOW);
        assertThat(beat.getRunning()).isEqualTo(running);
        assertThat(beat.getGpus()).extracting(GpuInfo::getMemoryUsedMiB).containsExactly(0, 9_000);
        assertThat(beat.getGpus()).allMatch(GpuInfo::getHealthy);
    }

    @Test
    void shouldReportTheLastKnownGpusUnhealthyWhenTheProbeFails() {
        HeartbeatFactory factory = new HeartbeatFactory("n1", "c1", "r1", 42, probe, GPUS);
        factory.heartbeat(List.of(), NOW);
        broken.set(true);

        NodeHeartbeat beat = factory.heartbeat(List.of(), NOW);

        assertThat(beat.getGpus()).hasSize(2).noneMatch(GpuInfo::getHealthy)
                .allSatisfy(g -> assertThat(g.getError()).contains("exit code 9"));
    }
}
