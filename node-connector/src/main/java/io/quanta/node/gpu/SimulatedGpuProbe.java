package io.quanta.node.gpu;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Virtual GPUs for the simulated backend: {@code count} healthy devices of one model, with stable UUIDs derived from
 * the node id. Usage (memory, utilisation) comes from a supplier, normally the simulated runner's view of what runs.
 */
public final class SimulatedGpuProbe implements GpuProbe {

    /**
     * Usage of one virtual GPU.
     *
     * @param memoryUsedMiB memory the jobs on it use
     * @param utilizationPercent 0..100
     */
    public record Usage(int memoryUsedMiB, int utilizationPercent) {
    }

    private final String nodeId;
    private final int count;
    private final String model;
    private final int memoryMiB;
    private final Supplier<Map<Integer, Usage>> usage;

    /**
     * Idle virtual GPUs.
     *
     * @param nodeId the node, used to derive GPU UUIDs
     * @param count number of GPUs, at least 1
     * @param model GPU model name, e.g. {@code V100}; memory per GPU from {@link GpuModels} or
     *     {@link GpuModels#DEFAULT_MEMORY_MIB} for an unknown model
     */
    public SimulatedGpuProbe(String nodeId, int count, String model) {
        this(nodeId, count, model, GpuModels.memoryMiB(model).orElse(GpuModels.DEFAULT_MEMORY_MIB), Map::of);
    }

    /**
     * Virtual GPUs with explicit memory and a source of usage.
     *
     * @param memoryMiB memory per GPU, at least 1
     * @param usage usage per GPU index; indices it does not mention are idle
     */
    public SimulatedGpuProbe(String nodeId, int count, String model, int memoryMiB,
                             Supplier<Map<Integer, Usage>> usage) {
        if (count < 1) {
            throw new IllegalArgumentException("a simulated node needs at least 1 GPU, got " + count);
        }
        if (memoryMiB < 1) {
            throw new IllegalArgumentException("GPU memory must be >= 1 MiB, got " + memoryMiB);
        }
        if (model == null || model.isBlank()) {
            throw new IllegalArgumentException("GPU model must not be blank");
        }
        this.nodeId = nodeId;
        this.count = count;
        this.model = model;
        this.memoryMiB = memoryMiB;
        this.usage = usage;
    }

    @Override
    public List<GpuDevice> probe() {
        Map<Integer, Usage> current = usage.get();
        List<GpuDevice> gpus = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Usage u = current.getOrDefault(i, new Usage(0, 0));
            gpus.add(GpuDevice.healthy(i, uuid(i), model, memoryMiB, Math.min(memoryMiB, u.memoryUsedMiB()),
                    Math.max(0, Math.min(100, u.utilizationPercent()))));
        }
        return List.copyOf(gpus);
    }

    @Override
    public String describe() {
        return count + " simulated " + model + " GPUs (" + memoryMiB + " MiB each)";
    }

    private String uuid(int index) {
        return "GPU-" + UUID.nameUUIDFromBytes((nodeId + "/" + index).getBytes(StandardCharsets.UTF_8));
    }
}
