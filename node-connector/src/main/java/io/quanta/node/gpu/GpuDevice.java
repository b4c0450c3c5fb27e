package io.quanta.node.gpu;

import io.quanta.schemas.GpuInfo;
import java.util.Objects;
import java.util.Optional;

/**
 * One GPU as a probe saw it. Unknown numbers are 0; an unhealthy GPU carries the text of its error.
 *
 * @param index device index as the driver numbers it (the value used in {@code CUDA_VISIBLE_DEVICES})
 * @param uuid stable identity of the device, empty when unknown
 * @param model product name, e.g. {@code Tesla V100-SXM2-16GB}
 * @param memoryTotalMiB memory of the device in MiB
 * @param memoryUsedMiB memory in use in MiB
 * @param utilizationPercent compute utilisation, 0..100
 * @param error why the GPU is unhealthy; empty when it is healthy
 */
public record GpuDevice(int index, String uuid, String model, int memoryTotalMiB, int memoryUsedMiB,
                        int utilizationPercent, Optional<String> error) {

    public GpuDevice {
        Objects.requireNonNull(uuid, "uuid");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(error, "error");
        if (memoryTotalMiB < 0 || memoryUsedMiB < 0) {
            throw new IllegalArgumentException("GPU " + index + ": memory must be >= 0, got total=" + memoryTotalMiB
                    + " used=" + memoryUsedMiB);
        }
        if (utilizationPercent < 0 || utilizationPercent > 100) {
            throw new IllegalArgumentException("GPU " + index + ": utilisation must be 0..100, got "
                    + utilizationPercent);
        }
    }

    /** A healthy GPU. */
    public static GpuDevice healthy(int index, String uuid, String model, int memoryTotalMiB, int memoryUsedMiB,
                                    int utilizationPercent) {
        return new GpuDevice(index, uuid, model, memoryTotalMiB, memoryUsedMiB, utilizationPercent, Optional.empty());
    }

    /** Whether the GPU can run jobs. */
    public boolean healthy() {
        return error.isEmpty();
    }

    /** The same GPU, now unhealthy for the given reason. */
    public GpuDevice withError(String reason) {
        return new GpuDevice(index, uuid, model, memoryTotalMiB, memoryUsedMiB, utilizationPercent,
                Optional.of(reason));
    }

    /** The same GPU with other usage figures. */
    public GpuDevice withUsage(int usedMiB, int utilization) {
        return new GpuDevice(index, uuid, model, memoryTotalMiB, usedMiB, utilization, error);
    }

    /** The heartbeat form of this GPU. */
    public GpuInfo toGpuInfo() {
        return GpuInfo.newBuilder()
                .setIndex(index)
                .setUuid(uuid)
                .setModel(model)
                .setMemoryTotalMiB(memoryTotalMiB)
                .setMemoryUsedMiB(memoryUsedMiB)
                .setUtilizationPercent(utilizationPercent)
                .setHealthy(healthy())
                .setError(error.orElse(null))
                .build();
    }
}
