package io.quanta.node.runner;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the {@link ProcessJobRunner}.
 *
 * @param suspendDeadline how long a job may take to checkpoint and exit after SIGUSR1 before it gets SIGTERM
 * @param termGrace how long after SIGTERM before SIGKILL
 * @param telemetryEndpoint value of {@code QUANTA_TELEMETRY} given to jobs, e.g. {@code udp://127.0.0.1:40123}
 * @param stderrTailLines how many last lines of stderr a FAILED event carries
 * @param sandbox how jobs are confined
 */
public record ProcessRunnerSettings(Duration suspendDeadline, Duration termGrace, String telemetryEndpoint,
                                    int stderrTailLines, SandboxSettings sandbox) {

    public ProcessRunnerSettings {
        requirePositive("suspendDeadline", suspendDeadline);
        requirePositive("termGrace", termGrace);
        Objects.requireNonNull(telemetryEndpoint, "telemetryEndpoint");
        if (stderrTailLines < 0) {
            throw new IllegalArgumentException("stderrTailLines must be >= 0, got " + stderrTailLines);
        }
        Objects.requireNonNull(sandbox, "sandbox");
    }

    /** Settings with the default sandbox. */
    public ProcessRunnerSettings(Duration suspendDeadline, Duration termGrace, String telemetryEndpoint,
                                 int stderrTailLines) {
        this(suspendDeadline, termGrace, telemetryEndpoint, stderrTailLines, SandboxSettings.defaults());
    }

    private static void requirePositive(String name, Duration value) {
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, got " + value);
        }
    }
}
