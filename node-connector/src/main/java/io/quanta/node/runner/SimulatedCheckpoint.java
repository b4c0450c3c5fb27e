package io.quanta.node.runner;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checkpoint references of the simulated backend: {@code sim:<jobId>#<attempt>:work-ms=<n>}, where {@code n} is the
 * work done so far in milliseconds at full speed. A new attempt started with such a reference continues from there.
 */
public final class SimulatedCheckpoint {

    private static final Pattern WORK = Pattern.compile("^sim:.*:work-ms=(\\d+)$");

    private SimulatedCheckpoint() {
    }

    /** The reference for an attempt that had done {@code workMillis} of work. */
    public static String reference(AttemptId id, long workMillis) {
        if (workMillis < 0) {
            throw new IllegalArgumentException("work must be >= 0, got " + workMillis);
        }
        return "sim:" + id + ":work-ms=" + workMillis;
    }

    /** The work done recorded in a reference, or empty if it is not a simulated checkpoint reference. */
    public static Optional<Long> workMillis(String reference) {
        Matcher m = WORK.matcher(reference);
        return m.matches() ? Optional.of(Long.parseLong(m.group(1))) : Optional.empty();
    }
}
