package io.quanta.node.gpu;

import java.util.List;

/** Finds the GPUs of this server and their current health and usage; called at start-up and before each heartbeat. */
public interface GpuProbe {

    /**
     * The GPUs of this server, sorted by index.
     *
     * @throws GpuProbeException when the GPUs cannot be listed at all (no driver, tool missing, tool failed)
     */
    List<GpuDevice> probe();

    /** A short human-readable description of where the GPUs come from, for logs. */
    String describe();
}
