package io.quanta.sim.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Knobs of the event loop, with simulation-sized defaults ({@link #defaults()}).
 *
 * @param origin the instant of the trace's time 0 (record timestamps are origin + trace seconds)
 * @param cellId the cell every simulated node declares
 * @param gpuModel GPU model of every node
 * @param heartbeatInterval every node heartbeats at least this often in virtual time; must be well below the
 *     scheduler's node timeout, so that liveness never fires falsely
 * @param extraHorizon how long after the last arrival plus the trace's serial work the loop may run before it gives up
 *     (guards against a policy that never finishes some job)
 * @param maxIdleWakeUps consecutive wake-ups that change nothing, with nothing running and no arrival left, before the
 *     loop concludes that the remaining jobs can never run
 * @param timelineSamples about how many samples the timeline keeps
 * @param telemetryWindow zero: a lead node reports an attempt's throughput whenever it changes; else it reports the
 *     average over each window of this length (aligned to the origin) that follows a change, as the node connector's
 *     telemetry aggregator does ({@link EngineParams#TELEMETRY_WINDOW_S})
 */
public record EngineSettings(Instant origin, String cellId, String gpuModel, Duration heartbeatInterval,
                             Duration extraHorizon, int maxIdleWakeUps, int timelineSamples, Duration telemetryWindow) {

    /** The default origin: trace time 0 is 2020-01-01T00:00:00Z. */
    public static final Instant DEFAULT_ORIGIN = Instant.parse("2020-01-01T00:00:00Z");

    /** The default cell of simulated nodes. */
    public static final String DEFAULT_CELL = "cell-0";

    public EngineSettings {
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(cellId, "cellId");
        Objects.requireNonNull(gpuModel, "gpuModel");
        if (heartbeatInterval.isNegative() || heartbeatInterval.isZero()) {
            throw new IllegalArgumentException("heartbeat interval must be > 0, got " + heartbeatInterval);
        }
        if (extraHorizon.isNegative()) {
            throw new IllegalArgumentException("extra horizon must be >= 0, got " + extraHorizon);
        }
        if (maxIdleWakeUps < 1) {
            throw new IllegalArgumentException("maxIdleWakeUps must be >= 1, got " + maxIdleWakeUps);
        }
        if (timelineSamples < 16) {
            throw new IllegalArgumentException("timelineSamples must be >= 16, got " + timelineSamples);
        }
        if (telemetryWindow.isNegative()) {
            throw new IllegalArgumentException("telemetry window must be >= 0, got " + telemetryWindow);
        }
    }

    /**
     * Origin 2020-01-01, cell {@code cell-0}, P100 GPUs (16 GB, Philly's GPU), a heartbeat every 24 virtual hours
     * (the scheduler's simulated node timeout is 4 days, see {@code SimulationConfig}), 30 days of extra horizon, 100
     * idle wake-ups, 600 timeline samples, telemetry on every change of throughput.
     */
    public static EngineSettings defaults() {
        return new EngineSettings(DEFAULT_ORIGIN, DEFAULT_CELL, "P100", Duration.ofHours(24), Duration.ofDays(30), 100,
                600, Duration.ZERO);
    }

    /** These settings with another heartbeat interval. */
    public EngineSettings withHeartbeatInterval(Duration interval) {
        return new EngineSettings(origin, cellId, gpuModel, interval, extraHorizon, maxIdleWakeUps, timelineSamples,
                telemetryWindow);
    }

    /** These settings with another telemetry window (zero: every change at once). */
    public EngineSettings withTelemetryWindow(Duration window) {
        return new EngineSettings(origin, cellId, gpuModel, heartbeatInterval, extraHorizon, maxIdleWakeUps,
                timelineSamples, window);
    }
}
