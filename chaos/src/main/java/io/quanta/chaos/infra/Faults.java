package io.quanta.chaos.infra;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * Timing of injected faults. {@link #hold(Duration)} keeps a fault in place for a chosen time (an outage's length is
 * part of the fault, not a wait for something to happen: every wait for a condition uses {@code Await.until}).
 */
public final class Faults {

    private Faults() {
    }

    /** Keeps the current fault for {@code duration}. */
    public static void hold(Duration duration) {
        long deadline = System.nanoTime() + duration.toNanos();
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
            if (Thread.currentThread().isInterrupted()) {
                throw new IllegalStateException("interrupted while holding a fault");
            }
        }
    }

    /** A duration drawn uniformly from [min, max]. */
    public static Duration between(SplittableRandom random, Duration min, Duration max) {
        long span = max.toMillis() - min.toMillis();
        return min.plusMillis(span <= 0 ? 0 : random.nextLong(span + 1));
    }
}
