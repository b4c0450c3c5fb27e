package io.quanta.sim.cluster;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

/** A clock that shows the simulation's virtual time; only moves forward, when the event loop sets it. */
public final class VirtualClock extends Clock {

    private Instant now;

    public VirtualClock(Instant start) {
        this.now = Objects.requireNonNull(start, "start");
    }

    /** Moves the clock to {@code t}. */
    public void set(Instant t) {
        if (t.isBefore(now)) {
            throw new IllegalArgumentException("virtual time cannot go back from " + now + " to " + t);
        }
        now = t;
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        if (!ZoneOffset.UTC.equals(zone)) {
            throw new UnsupportedOperationException("the virtual clock is UTC only");
        }
        return this;
    }
}
