package io.quanta.node.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NvidiaSmiGpuProbeTest {

    @TempDir
    Path dir;

    private Path fakeNvidiaSmi(String body) throws IOException {
        Path script = dir.resolve("nvidia-smi");
        Files.writeString(script, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }

    private Path recordedCopy(String name) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, NvidiaSmiParserTest.recorded(name));
        return file;
    }

    @Test
    void shouldListGpusWhenTheToolAnswers() throws IOException {
        Path output = recordedCopy("v100x8.csv");
        Path tool = fakeNvidiaSmi("cat '" + output + "'");

        List<GpuDevice> gpus = new NvidiaSmiGpuProbe(tool.toString(), Duration.ofSeconds(10)).probe();

        assertThat(gpus).hasSize(8).allMatch(GpuDevice::healthy);
    }

    @Test
    void shouldPassTheQueryAndFormatWhenRunningTheTool() throws IOException {
        Path args = dir.resolve("args.txt");
        Path output = recordedCopy("v100x8.csv");
        Path tool = fakeNvidiaSmi("echo \"$@\" > '" + args + "'; cat '" + output + "'");

        new NvidiaSmiGpuProbe(tool.toString(), Duration.ofSeconds(10)).probe();

        assertThat(Files.readString(args).strip()).isEqualTo("--query-gpu=index,uuid,name,memory.total,memory.used,"
                + "utilization.gpu --format=csv,noheader,nounits");
    }

    @Test
    void shouldFailWithAClearMessageWhenTheBinaryIsMissing() {
        NvidiaSmiGpuProbe probe = new NvidiaSmiGpuProbe(dir.resolve("no-such-nvidia-smi").toString(),
                Duration.ofSeconds(10));

        assertThatThrownBy(probe::probe)
                .isInstanceOf(GpuProbeException.class)
                .hasMessageContaining("cannot run")
                .hasMessageContaining("install the NVIDIA driver")
                .hasMessageContaining("--backend simulated");
    }

    @Test
    void shouldFailWithTheToolOutputWhenTheDriverCannotBeReached() throws IOException {
        Path output = recordedCopy("driver-failure.txt");
        Path tool = fakeNvidiaSmi("cat '" + output + "'; exit 9");

        assertThatThrownBy(new NvidiaSmiGpuProbe(tool.toString(), Duration.ofSeconds(10))::probe)
                .isInstanceOf(GpuProbeException.class)
                .hasMessageContaining("exit code 9")
                .hasMessageContaining("couldn't communicate with the NVIDIA driver");
    }

    @Test
    void shouldFailWhenTheToolHangsBeyondTheTimeout() throws IOException {
        Path tool = fakeNvidiaSmi("exec sleep 30");

        assertThatThrownBy(new NvidiaSmiGpuProbe(tool.toString(), Duration.ofMillis(300))::probe)
                .isInstanceOf(GpuProbeException.class)
                .hasMessageContaining("did not answer");
    }

    @Test
    void shouldKeepReportingAGpuAsUnhealthyWhenItDisappearsFromTheListing() throws IOException {
        Path output = dir.resolve("current.csv");
        Files.writeString(output, NvidiaSmiParserTest.recorded("v100x8.csv"));
        Path tool = fakeNvidiaSmi("cat '" + output + "'");
        NvidiaSmiGpuProbe probe = new NvidiaSmiGpuProbe(tool.toString(), Duration.ofSeconds(10));
        probe.probe();
        List<String> lines = Files.readAllLines(output);
        lines.set(5, "Unable to determine the device handle for GPU 0000:5E:00.0: GPU is lost");
        Files.write(output, lines);

        List<GpuDevice> gpus = probe.probe();

        assertThat(gpus).hasSize(8);
        assertThat(gpus.get(5).healthy()).isFalse();
        assertThat(gpus.get(5).error()).get().asString()
                .contains("no longer listed by nvidia-smi")
                .contains("GPU is lost");
        assertThat(gpus.stream().filter(GpuDevice::healthy)).hasSize(7);
    }
}
