package io.quanta.node;

import io.quanta.node.runner.AttemptId;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connector's half of fencing. The scheduler declares a node lost, and starts its attempts elsewhere, after
 * {@code scheduler.node.timeout.ms} without its heartbeats; a connector cut off from the broker cannot hear that, so
 * it must stop its attempts first: when no heartbeat has been acknowledged by the broker for the fence timeout (shorter
 * than the node timeout), every attempt it runs is killed and reported LOST. Two copies of one attempt therefore never
 * run, whatever the partition. Time is the monotonic clock, so a wall-clock jump neither fences nor delays a fence.
 * Thread-safe: {@link #contact()} from the producer's callback, {@link #check()} from a timer.
 */
final class SelfFence {

    private static final Logger LOG = LoggerFactory.getLogger(SelfFence.class);

    private final Duration timeout;
    private final LongSupplier nanoTime;
    private final Function<String, List<AttemptId>> fence;
    private volatile long lastContactNanos;
    private long fencedTotal;

    /**
     * @param timeout silence after which the attempts are fenced
     * @param nanoTime a monotonic clock ({@code System::nanoTime})
     * @param fence ends every running attempt with the given reason and returns those it ended
     */
    SelfFence(Duration timeout, LongSupplier nanoTime, Function<String, List<AttemptId>> fence) {
        this.timeout = timeout;
        this.nanoTime = nanoTime;
        this.fence = fence;
        this.lastContactNanos = nanoTime.getAsLong();
    }

    /** The broker acknowledged a heartbeat. */
    void contact() {
        lastContactNanos = nanoTime.getAsLong();
    }

    /** How long since the last acknowledged heartbeat (or since start). */
    Duration silence() {
        return Duration.ofNanos(nanoTime.getAsLong() - lastContactNanos);
    }

    /** Fences every running attempt when the silence exceeds the timeout; returns those fenced now. */
    synchronized List<AttemptId> check() {
        Duration silence = silence();
        if (silence.compareTo(timeout) <= 0) {
            return List.of();
        }
        List<AttemptId> fenced = fence.apply("node fenced itself: no heartbeat acknowledged by the broker for "
                + silence.toMillis() + " ms (node.fence.timeout.ms " + timeout.toMillis() + "); the scheduler will "
                + "declare the node lost and start its attempts elsewhere");
        if (!fenced.isEmpty()) {
            fencedTotal += fenced.size();
            LOG.warn("no heartbeat acknowledged for {} ms (fence timeout {} ms): killed {} attempt(s) {}",
                    silence.toMillis(), timeout.toMillis(), fenced.size(), fenced);
        }
        return fenced;
    }

    /** Attempts fenced since start. */
    synchronized long fencedTotal() {
        return fencedTotal;
    }
}
