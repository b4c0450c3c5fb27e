package io.quanta.node;

import io.quanta.node.command.CommandHandler;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node connector's periodic work, on one thread ({@code quanta-node-timers}): a telemetry window every
 * {@code node.telemetry.window.ms}; the self-fencing check, ten times per fence timeout (every 10 ms to 1 s); every
 * hour, when {@code node.attempts.retention.hours} is set, the removal of attempts that ended longer ago; and, from
 * {@link #startHeartbeats()} on, a heartbeat every {@code node.heartbeat.interval.ms}. A run that fails is logged and
 * the task runs again at its next time. {@link #close()} stops them all.
 */
final class NodeTimers implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NodeTimers.class);
    /** How often ended attempts older than {@code node.attempts.retention.hours} are removed. */
    private static final Duration SWEEP_INTERVAL = Duration.ofHours(1);

    private final NodeSettings settings;
    private final Clock clock;
    private final Heartbeater heartbeater;
    private final SelfFence fence;
    private final CommandHandler handler;
    private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(1, r -> {
        Thread t = new Thread(r, "quanta-node-timers");
        t.setDaemon(true);
        return t;
    });

    private NodeTimers(NodeSettings settings, Clock clock, Heartbeater heartbeater, SelfFence fence,
                       CommandHandler handler) {
        this.settings = settings;
        this.clock = clock;
        this.heartbeater = heartbeater;
        this.fence = fence;
        this.handler = handler;
    }

    /** Starts the telemetry windows, the fencing checks and the clean-up of ended attempts (no heartbeats yet). */
    static NodeTimers start(NodeSettings settings, Clock clock, TelemetryReporter telemetry, Heartbeater heartbeater,
                            SelfFence fence, CommandHandler handler) {
        NodeTimers timers = new NodeTimers(settings, clock, heartbeater, fence, handler);
        timers.every(settings.telemetryWindow().toMillis(), settings.telemetryWindow().toMillis(), telemetry::report);
        long fenceCheck = Math.max(10, Math.min(1_000, settings.fenceTimeout().toMillis() / 10));
        timers.every(fenceCheck, fenceCheck, timers::checkFence);
        if (!settings.attemptRetention().isZero()) {
            timers.every(0, SWEEP_INTERVAL.toMillis(), timers::sweep);
        }
        return timers;
    }

    /**
     * Starts the heartbeats, the first one now: called once the command partition is assigned (a heartbeat tells the
     * scheduler that this node listens).
     */
    void startHeartbeats() {
        heartbeater.start();
        every(0, settings.heartbeatInterval().toMillis(), heartbeater::beat);
    }

    /** Stops every task, waiting up to 10 s for one that runs. */
    @Override
    public void close() {
        executor.shutdownNow();
        try {
            executor.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void every(long initialDelayMs, long periodMs, Runnable task) {
        executor.scheduleAtFixedRate(task, initialDelayMs, periodMs, TimeUnit.MILLISECONDS);
    }

    private void checkFence() {
        try {
            fence.check();
        } catch (RuntimeException e) {
            LOG.error("self-fencing check failed", e);
        }
    }

    private void sweep() {
        try {
            handler.forgetEndedBefore(clock.instant().minus(settings.attemptRetention()));
        } catch (RuntimeException e) {
            LOG.warn("cleaning up ended attempts failed (retried in {}): {}", SWEEP_INTERVAL, e.toString());
        }
    }
}
