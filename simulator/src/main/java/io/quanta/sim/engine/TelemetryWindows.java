package io.quanta.sim.engine;

import io.quanta.node.runner.AttemptId;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The node connector's telemetry cadence on virtual time: what the scheduler learns of an attempt's throughput when
 * its lead node reports averages over fixed windows (the connector's {@code TelemetryAggregator},
 * {@code node.telemetry.window.ms}) instead of each change at once. Windows end at origin + k x window. After the
 * attempt's speed changes at t (its start counts as a change), the window that holds t is reported at its end: the
 * average speed over the part of the window the attempt ran, before and after t; and the next window too: the new
 * speed alone. A window without a change would repeat what the scheduler already holds, which changes nothing in the
 * cell (the cell engine keeps a throughput within its resolution and does not move its time for telemetry), so none
 * is sent for it. The speeds are the throughput model's; the seconds a resume takes before the first minibatch are
 * not taken out (the connector would count no minibatches in them). Deterministic: attempts in {@link AttemptId}
 * order.
 */
final class TelemetryWindows {

    /** One report: the attempt's average speed (fraction of full speed) over the window that ended. */
    record Report(AttemptId attempt, double speed, Duration window) {
    }

    private record Segment(Instant from, double speed) {
    }

    private static final class Track {
        final Instant first;
        final List<Segment> segments = new ArrayList<>();
        double reported = Double.NaN;

        Track(Instant first) {
            this.first = first;
        }

        double current() {
            return segments.get(segments.size() - 1).speed();
        }

        /** Speed x seconds over [from, to]. */
        double work(Instant from, Instant to) {
            double sum = 0;
            for (int i = 0; i < segments.size(); i++) {
                Instant start = max(segments.get(i).from(), from);
                Instant end = i + 1 < segments.size() ? min(segments.get(i + 1).from(), to) : to;
                if (end.isAfter(start)) {
                    sum += segments.get(i).speed() * seconds(start, end);
                }
            }
            return sum;
        }

        /** Drops the segments that end at or before {@code t}: no later window starts before it. */
        void trimTo(Instant t) {
            while (segments.size() > 1 && !segments.get(1).from().isAfter(t)) {
                segments.remove(0);
            }
        }
    }

    private final Instant origin;
    private final Duration window;
    private final Map<AttemptId, Track> tracks = new TreeMap<>();
    private final TreeMap<Instant, TreeSet<AttemptId>> due = new TreeMap<>();

    /**
     * @param origin where the first window starts
     * @param window the window's length, above zero
     */
    TelemetryWindows(Instant origin, Duration window) {
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("telemetry window must be > 0, got " + window);
        }
        this.origin = origin;
        this.window = window;
    }

    /** Notes the attempt's speed at {@code now}; a new attempt or another speed is a change, with two reports due. */
    void observe(AttemptId id, double speed, Instant now) {
        Track track = tracks.get(id);
        if (track == null) {
            track = new Track(now);
            tracks.put(id, track);
        } else if (Math.abs(track.current() - speed) < 1e-9) {
            return;
        }
        track.segments.add(new Segment(now, speed));
        Instant end = windowEndAfter(now);
        due.computeIfAbsent(end, k -> new TreeSet<>()).add(id);
        due.computeIfAbsent(end.plus(window), k -> new TreeSet<>()).add(id);
    }

    /** The attempt ended: nothing more is reported for it. */
    void forget(AttemptId id) {
        if (tracks.remove(id) != null) {
            due.values().forEach(ids -> ids.remove(id));
            due.values().removeIf(TreeSet::isEmpty);
        }
    }

    /** The end of the next window with a report due. */
    Optional<Instant> nextDue() {
        return due.isEmpty() ? Optional.empty() : Optional.of(due.firstKey());
    }

    /** The number of reports due at or before {@code now}, whether or not they would tell anything new. */
    int dueCount(Instant now) {
        return due.headMap(now, true).values().stream().mapToInt(TreeSet::size).sum();
    }

    /** The reports of the windows that ended at or before {@code now} and tell the scheduler something new. */
    List<Report> reportsDue(Instant now) {
        List<Report> out = new ArrayList<>();
        while (!due.isEmpty() && !due.firstKey().isAfter(now)) {
            Map.Entry<Instant, TreeSet<AttemptId>> entry = due.pollFirstEntry();
            Instant end = entry.getKey();
            for (AttemptId id : entry.getValue()) {
                Track track = tracks.get(id);
                Instant from = max(end.minus(window), track.first);
                double speed = track.work(from, end) / seconds(from, end);
                track.trimTo(end);
                if (Math.abs(speed - track.reported) < 1e-9) {
                    continue;
                }
                track.reported = speed;
                out.add(new Report(id, speed, Duration.between(from, end)));
            }
        }
        return out;
    }

    private Instant windowEndAfter(Instant t) {
        long windows = Duration.between(origin, t).toNanos() / window.toNanos() + 1;
        return origin.plus(window.multipliedBy(windows));
    }

    private static double seconds(Instant from, Instant to) {
        return Duration.between(from, to).toNanos() / 1e9;
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }
}
