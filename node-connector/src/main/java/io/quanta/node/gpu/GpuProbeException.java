package io.quanta.node.gpu;

/** The GPUs of this server could not be listed; the message says why and what to check. */
public final class GpuProbeException extends RuntimeException {

    public GpuProbeException(String message) {
        super(message);
    }

    public GpuProbeException(String message, Throwable cause) {
        super(message, cause);
    }
}
