package io.quanta.node.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NvidiaSmiParserTest {

    static String recorded(String name) {
        try (InputStream in = NvidiaSmiParserTest.class.getResourceAsStream("/nvidia-smi/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void shouldReadEveryGpuWhenAllAreHealthy() {
        NvidiaSmiParser.Result result = NvidiaSmiParser.parse(recorded("v100x8.csv"));

        assertThat(result.warnings()).isEmpty();
        assertThat(result.gpus()).hasSize(8).allMatch(GpuDevice::healthy);
        assertThat(result.gpus().get(1)).isEqualTo(GpuDevice.healthy(1, "GPU-1b6c9d1e-0f5a-4b8e-9a7d-2c3e4f5a6b71",
                "Tesla V100-SXM2-16GB", 16160, 15403, 98));
        assertThat(result.gpus()).extracting(GpuDevice::index).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    }

    @Test
    void shouldMarkGpuUnhealthyWithTheErrorTextWhenItNeedsAResetOrReportsErr() {
        NvidiaSmiParser.Result result = NvidiaSmiParser.parse(recorded("a100-errors.csv"));

        assertThat(result.gpus()).extracting(GpuDevice::index).containsExactly(0, 1, 2, 3);
        assertThat(result.gpus().get(0).healthy()).isTrue();
        assertThat(result.gpus().get(1).error())
                .contains("memory.used: [GPU requires reset]; utilization.gpu: [GPU requires reset]");
        assertThat(result.gpus().get(1).memoryTotalMiB()).isEqualTo(40536);
        assertThat(result.gpus().get(3).error()).contains("memory.used: ERR!; utilization.gpu: ERR!");
    }

    @Test
    void shouldReadNotAvailableAsUnknownAndToleratePaddingWhenValuesAreMissing() {
        NvidiaSmiParser.Result result = NvidiaSmiParser.parse(recorded("a100-errors.csv"));

        GpuDevice gpu2 = result.gpus().get(2);
        assertThat(gpu2.healthy()).isTrue();
        assertThat(gpu2.uuid()).isEqualTo("GPU-7e0f6a52-3d1c-4e8a-b4f2-8c9d0e1f2a32");
        assertThat(gpu2.model()).isEqualTo("NVIDIA A100-SXM4-40GB");
        assertThat(gpu2.memoryUsedMiB()).isEqualTo(1);
        assertThat(gpu2.utilizationPercent()).isZero();
    }

    @Test
    void shouldReturnLinesWithoutAGpuIndexAsWarningsWhenTheDriverCannotReachADevice() {
        NvidiaSmiParser.Result result = NvidiaSmiParser.parse(recorded("a100-errors.csv"));

        assertThat(result.warnings())
                .containsExactly("Unable to determine the device handle for GPU 0000:C1:00.0: Unknown Error");
    }

    @Test
    void shouldKeepCommasOfTheProductNameWhenTheLineHasExtraColumns() {
        NvidiaSmiParser.Result result = NvidiaSmiParser.parse(recorded("comma-in-name.csv"));

        assertThat(result.gpus()).singleElement().satisfies(g -> {
            assertThat(g.model()).isEqualTo("GeForce RTX 2080 Ti, Rev. A");
            assertThat(g.memoryTotalMiB()).isEqualTo(11019);
            assertThat(g.memoryUsedMiB()).isZero();
            assertThat(g.utilizationPercent()).isEqualTo(12);
            assertThat(g.healthy()).isTrue();
        });
    }

    @Test
    void shouldReportUnreadableNumbersAsErrorsWhenAColumnIsGarbage() {
        Optional<GpuDevice> gpu = NvidiaSmiParser.parseLine("4, GPU-x, T4, lots, 3, 250");

        assertThat(gpu).get().satisfies(g -> {
            assertThat(g.healthy()).isFalse();
            assertThat(g.error()).contains("memory.total: unreadable value 'lots'");
        });
    }

    @Test
    void shouldReturnNoGpuAndAWarningWhenTheOutputIsADriverFailureMessage() {
        NvidiaSmiParser.Result result = NvidiaSmiParser.parse(recorded("driver-failure.txt"));

        assertThat(result.gpus()).isEmpty();
        assertThat(result.warnings()).singleElement().asString().startsWith("NVIDIA-SMI has failed");
    }

    @Test
    void shouldConvertToHeartbeatGpuInfoWithHealthAndError() {
        GpuDevice broken = GpuDevice.healthy(3, "u", "T4", 15360, 0, 0).withError("memory.used: ERR!");

        assertThat(broken.toGpuInfo().getHealthy()).isFalse();
        assertThat(broken.toGpuInfo().getError()).isEqualTo("memory.used: ERR!");
        assertThat(GpuDevice.healthy(0, "u", "T4", 15360, 0, 0).toGpuInfo().getError()).isNull();
    }
}
