package io.quanta.streams;

import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * Keeps the wall clock of a topology driven on virtual time (a {@code TopologyTestDriver} in the simulator and the
 * test harnesses) at or ahead of the records it is fed, as it is in a live cluster, where the broker stamps records
 * when they arrive: the routers refuse records stamped beyond the scheduler's clock plus the allowed skew. The clock
 * moves in steps of {@code step} past the record time, so a driver that commits on every move does so rarely; a zero
 * step follows the records exactly.
 */
public final class WallClockFollower {

    private final Consumer<Duration> advance;
    private final long stepMs;
    private long clockMs;

    /**
     * @param start   the driver's wall clock now
     * @param step    how far past a record's time to move the clock when it falls behind
     * @param advance moves the driver's wall clock forward by the given amount
     */
    public WallClockFollower(Instant start, Duration step, Consumer<Duration> advance) {
        this.clockMs = start.toEpochMilli();
        this.stepMs = step.toMillis();
        this.advance = advance;
    }

    /** Moves the clock so that it is not behind {@code recordTime}. */
    public void follow(Instant recordTime) {
        long ms = recordTime.toEpochMilli();
        if (ms > clockMs) {
            long next = ms + stepMs;
            advance.accept(Duration.ofMillis(next - clockMs));
            clockMs = next;
        }
    }
}
