package io.quanta.node.telemetry;

import io.quanta.node.runner.AttemptId;
import io.quanta.schemas.JobTelemetry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * Sums the progress reports of each attempt over a window and turns them into {@link JobTelemetry} when the window
 * closes ({@link #flush(Instant)}). The total is the job's own {@code done} when it reports one, else the sum of its
 * reports; the rate is the window's minibatches over the window's length (from the window start, or from the attempt's
 * first report when it started within the window). An attempt that reported nothing in a window produces no record.
 * Thread-safe.
 */
public final class TelemetryAggregator {

    private final String nodeId;
    private final Map<AttemptId, Window> windows = new TreeMap<>();
    private Instant lastFlush;

    /** An aggregator whose first window starts at {@code start}. */
    public TelemetryAggregator(String nodeId, Instant start) {
        this.nodeId = nodeId;
        this.lastFlush = start;
    }

    /** Adds one report received at {@code at}. */
    public synchronized void record(TelemetryReport report, Instant at) {
        Window w = windows.computeIfAbsent(report.attempt(), k -> new Window(at));
        w.count += report.minibatches();
        w.total = report.done().isPresent() ? Math.max(report.done().getAsLong(), w.total + report.minibatches())
                : w.total + report.minibatches();
        report.memoryMiB().ifPresent(m -> w.memoryMiB = m);
        w.active = true;
    }

    /**
     * Adds a total measured by a runner (simulated backend): the increase since the previous total counts in the
     * window; the first total of an attempt is a baseline.
     */
    public synchronized void recordTotal(AttemptId attempt, long total, OptionalInt memoryMiB, Instant at) {
        Window w = windows.get(attempt);
        if (w == null) {
            w = new Window(at);
            w.total = total;
            windows.put(attempt, w);
        } else if (total > w.total) {
            w.count += total - w.total;
            w.total = total;
            w.active = true;
        }
        memoryMiB.ifPresent(m -> windows.get(attempt).memoryMiB = m);
    }

    /** The total minibatches known for an attempt so far, if it reported anything. */
    public synchronized java.util.OptionalLong totalOf(AttemptId attempt) {
        Window w = windows.get(attempt);
        return w == null ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(w.total);
    }

    /** Stops tracking an attempt (it ended); its unflushed reports are dropped. */
    public synchronized void forget(AttemptId attempt) {
        windows.remove(attempt);
    }

    /** Stops tracking every attempt not in {@code active} (they ended). */
    public synchronized void retainOnly(java.util.Set<AttemptId> active) {
        windows.keySet().retainAll(active);
    }

    /** Closes the window at {@code now}: one record per attempt that made progress in it. */
    public synchronized List<JobTelemetry> flush(Instant now) {
        List<JobTelemetry> out = new ArrayList<>();
        for (Map.Entry<AttemptId, Window> e : windows.entrySet()) {
            Window w = e.getValue();
            if (!w.active) {
                continue;
            }
            Instant from = w.start.isAfter(lastFlush) ? w.start : lastFlush;
            long millis = Math.max(1, Duration.between(from, now).toMillis());
            out.add(JobTelemetry.newBuilder()
                    .setJobId(e.getKey().jobId())
                    .setAttempt(e.getKey().attempt())
                    .setNodeId(nodeId)
                    .setMinibatchesDone(w.total)
                    .setMinibatchesPerSecond(w.count * 1000.0 / millis)
                    .setWindowMillis(millis)
                    .setGpuMemoryUsedMiB(w.memoryMiB)
                    .setReportedAt(now)
                    .build());
            w.count = 0;
            w.active = false;
            w.start = now;
        }
        lastFlush = now;
        return out;
    }

    /** Per-attempt state of the current window. */
    private static final class Window {
        Instant start;
        long count;
        long total;
        Integer memoryMiB;
        boolean active;

        Window(Instant start) {
            this.start = start;
        }
    }
}
