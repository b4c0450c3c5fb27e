package io.quanta.cli.client;

import java.time.Duration;
import java.time.Instant;

/** Short human durations as kubectl prints ages: {@code 45s}, {@code 12m}, {@code 3h20m}, {@code 2d4h}. */
public final class Durations {

    private Durations() {
    }

    /** The age of {@code since} at {@code now}, or {@code -} when unknown. */
    public static String age(Instant since, Instant now) {
        return since == null ? "-" : human(Duration.between(since, now));
    }

    /** A duration in the largest two units. */
    public static String human(Duration d) {
        long s = Math.max(0, d.toSeconds());
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return (s / 60) + "m" + (s % 60 == 0 || s >= 600 ? "" : (s % 60) + "s");
        }
        if (s < 86_400) {
            long m = (s % 3600) / 60;
            return (s / 3600) + "h" + (m == 0 ? "" : m + "m");
        }
        long h = (s % 86_400) / 3600;
        return (s / 86_400) + "d" + (h == 0 ? "" : h + "h");
    }
}
