package io.quanta.streams.cell;

import java.time.Duration;
import java.util.Objects;

/**
 * How long (stream time) an attempt may wait for its node to confirm a command: STARTED after START, SUSPENDED after
 * SUSPEND. Zero turns a timeout off (what configurations recorded before the timeouts existed replay with).
 */
public record AttemptTimeouts(Duration start, Duration suspend) {

    /** No timeouts. */
    public static final AttemptTimeouts OFF = new AttemptTimeouts(Duration.ZERO, Duration.ZERO);

    public AttemptTimeouts {
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(suspend, "suspend");
        if (start.isNegative() || suspend.isNegative()) {
            throw new IllegalArgumentException("attempt timeouts must be >= 0 (0 = off), got " + start + ", "
                    + suspend);
        }
    }
}
