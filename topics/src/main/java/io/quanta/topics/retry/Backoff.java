package io.quanta.topics.retry;

import java.time.Duration;
import java.util.Objects;

/**
 * Exponential backoff, the one retry policy of the project's retry loops (schema registry calls, {@code topics apply}
 * waiting for a new topic's metadata, the node connector's outbox, its reading of commands while the registry is down
 * and its removal of a killed attempt's cgroup): the first delay, doubled after each failure up to a cap, back to the
 * first after a success. Not thread-safe: one per loop.
 *
 * <p>Own code (a few lines) rather than Failsafe or Resilience4j: the loops wait in different ways (the outbox on its
 * monitor, so that new items and close wake it; the connector on its pause lock; the registry client and
 * {@code topics apply} by sleeping) and need only the delays, which a library would not make shorter.
 */
public final class Backoff {

    private final Duration initial;
    private final Duration max;
    private Duration next;

    /**
     * @param initial the delay after the first failure (zero: retry at once, every time)
     * @param max     the largest delay (at least {@code initial})
     */
    public Backoff(Duration initial, Duration max) {
        Objects.requireNonNull(initial, "initial");
        Objects.requireNonNull(max, "max");
        if (initial.isNegative() || max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("backoff needs 0 <= initial <= max, got initial " + initial
                    + " and max " + max);
        }
        this.initial = initial;
        this.max = max;
        this.next = initial;
    }

    /** The delay to wait before the next retry; the one after it is twice as long, up to the cap. */
    public Duration next() {
        Duration delay = next;
        Duration doubled = next.multipliedBy(2);
        next = doubled.compareTo(max) > 0 ? max : doubled;
        return delay;
    }

    /** After a success: the next delay is the first again. */
    public void reset() {
        next = initial;
    }
}
