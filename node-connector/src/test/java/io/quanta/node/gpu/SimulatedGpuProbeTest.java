package io.quanta.node.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SimulatedGpuProbeTest {

    @Test
    void shouldCreateHealthyGpusWithTheModelMemoryWhenTheModelIsKnown() {
        List<GpuDevice> gpus = new SimulatedGpuProbe("n1", 4, "V100-32GB").probe();

        assertThat(gpus).hasSize(4).allMatch(GpuDevice::healthy)
                .allSatisfy(g -> assertThat(g.memoryTotalMiB()).isEqualTo(32_768));
        assertThat(gpus).extracting(GpuDevice::index).containsExactly(0, 1, 2, 3);
    }

    @Test
    void shouldUseTheDefaultMemoryWhenTheModelIsUnknown() {
        assertThat(new SimulatedGpuProbe("n1", 1, "MysteryGPU").probe().get(0).memoryTotalMiB())
                .isEqualTo(GpuModels.DEFAULT_MEMORY_MIB);
    }

    @Test
    void shouldGiveStableDistinctUuidsPerNodeWhenProbedTwice() {
        List<GpuDevice> a = new SimulatedGpuProbe("n1", 2, "T4").probe();
        List<GpuDevice> b = new SimulatedGpuProbe("n1", 2, "T4").probe();
        List<GpuDevice> other = new SimulatedGpuProbe("n2", 2, "T4").probe();

        assertThat(a).isEqualTo(b);
        assertThat(a.get(0).uuid()).isNotEqualTo(a.get(1).uuid()).isNotEqualTo(other.get(0).uuid());
    }

    @Test
    void shouldReportUsageFromTheSupplierWhenJobsRun() {
        SimulatedGpuProbe probe = new SimulatedGpuProbe("n1", 2, "T4", 15_360,
                () -> Map.of(1, new SimulatedGpuProbe.Usage(4_000, 100)));

        List<GpuDevice> gpus = probe.probe();

        assertThat(gpus.get(0).memoryUsedMiB()).isZero();
        assertThat(gpus.get(1).memoryUsedMiB()).isEqualTo(4_000);
        assertThat(gpus.get(1).utilizationPercent()).isEqualTo(100);
    }

    @Test
    void shouldRejectANodeWithoutGpus() {
        assertThatThrownBy(() -> new SimulatedGpuProbe("n1", 0, "T4"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got 0");
    }
}
