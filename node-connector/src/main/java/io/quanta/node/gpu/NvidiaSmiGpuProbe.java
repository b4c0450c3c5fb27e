package io.quanta.node.gpu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists the GPUs with {@code nvidia-smi} (see {@link NvidiaSmiParser} for the query and how errors are read). A GPU
 * that an earlier probe listed and the current one does not is still reported, unhealthy, so that the scheduler stops
 * placing work on it. A missing binary, a failing driver or a hung tool raise a {@link GpuProbeException} that says so.
 */
public final class NvidiaSmiGpuProbe implements GpuProbe {

    private static final Logger LOG = LoggerFactory.getLogger(NvidiaSmiGpuProbe.class);
    private static final int MAX_MESSAGE_CHARS = 500;

    private final String executable;
    private final Duration timeout;
    private final Map<Integer, GpuDevice> lastSeen = new TreeMap<>();

    /** A probe that runs {@code nvidia-smi} from the PATH, giving it 10 seconds. */
    public NvidiaSmiGpuProbe() {
        this("nvidia-smi", Duration.ofSeconds(10));
    }

    /**
     * @param executable the nvidia-smi binary: a name looked up on the PATH or a path
     * @param timeout how long one run may take before it is killed
     */
    public NvidiaSmiGpuProbe(String executable, Duration timeout) {
        if (executable == null || executable.isBlank()) {
            throw new IllegalArgumentException("nvidia-smi executable must not be blank");
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
        this.executable = executable;
        this.timeout = timeout;
    }

    @Override
    public synchronized List<GpuDevice> probe() {
        NvidiaSmiParser.Result result = NvidiaSmiParser.parse(run());
        result.warnings().forEach(w -> LOG.warn("nvidia-smi: {}", w));
        List<GpuDevice> gpus = new ArrayList<>(result.gpus());
        for (GpuDevice previous : lastSeen.values()) {
            if (gpus.stream().noneMatch(g -> g.index() == previous.index())) {
                String reason = "no longer listed by nvidia-smi"
                        + (result.warnings().isEmpty() ? "" : ": " + String.join(" | ", result.warnings()));
                gpus.add(previous.withError(truncate(reason)).withUsage(0, 0));
            }
        }
        gpus.sort(Comparator.comparingInt(GpuDevice::index));
        result.gpus().forEach(g -> lastSeen.put(g.index(), g));
        if (gpus.isEmpty()) {
            throw new GpuProbeException("nvidia-smi listed no GPU"
                    + (result.warnings().isEmpty() ? "" : ": " + truncate(String.join(" | ", result.warnings()))));
        }
        return List.copyOf(gpus);
    }

    @Override
    public String describe() {
        return "nvidia-smi (" + executable + ")";
    }

    private String run() {
        Path output = null;
        try {
            output = Files.createTempFile("quanta-nvidia-smi", ".txt");
            Process process = start(output);
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new GpuProbeException(executable + " did not answer within " + timeout
                        + ": the driver may be hung; check the GPUs with 'nvidia-smi -q'");
            }
            String text = Files.readString(output, StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new GpuProbeException(executable + " failed with exit code " + process.exitValue() + ": "
                        + truncate(text.strip()));
            }
            return text;
        } catch (IOException e) {
            throw new GpuProbeException("cannot read the output of " + executable + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GpuProbeException("interrupted while running " + executable, e);
        } finally {
            deleteQuietly(output);
        }
    }

    private Process start(Path output) {
        List<String> command = List.of(executable, "--query-gpu=" + NvidiaSmiParser.QUERY,
                "--format=csv,noheader,nounits");
        try {
            return new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
        } catch (IOException e) {
            throw new GpuProbeException("cannot run '" + executable + "' (" + e.getMessage() + "): install the "
                    + "NVIDIA driver (it ships nvidia-smi) or put nvidia-smi on the PATH, or use the simulated "
                    + "backend (--backend simulated --gpus N)", e);
        }
    }

    private static String truncate(String text) {
        return text.length() <= MAX_MESSAGE_CHARS ? text : text.substring(0, MAX_MESSAGE_CHARS) + "...";
    }

    private static void deleteQuietly(Path file) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.debug("cannot delete {}", file, e);
        }
    }
}
