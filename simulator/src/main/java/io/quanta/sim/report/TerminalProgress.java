package io.quanta.sim.report;

import io.quanta.sim.engine.ProgressListener;
import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Progress of a long run on a terminal (stderr): jobs done in percent, simulated time, rate and ETA, at most once per
 * {@code interval} of wall time, plus a final line. Reads the wall clock only to throttle and estimate.
 */
public final class TerminalProgress implements ProgressListener {

    private final PrintStream out;
    private final String label;
    private final LongSupplier nanoTime;
    private final long intervalNanos;
    private final long started;
    private long lastPrinted;

    /**
     * @param out where to print (stderr)
     * @param label the run, e.g. the policy name
     * @param nanoTime wall clock in nanoseconds
     * @param intervalNanos least wall time between two lines
     */
    public TerminalProgress(PrintStream out, String label, LongSupplier nanoTime, long intervalNanos) {
        this.out = out;
        this.label = label;
        this.nanoTime = nanoTime;
        this.intervalNanos = intervalNanos;
        this.started = nanoTime.getAsLong();
        this.lastPrinted = started;
    }

    /** Prints at most every 2 seconds to {@code out}. */
    public static TerminalProgress every2s(PrintStream out, String label) {
        return new TerminalProgress(out, label, System::nanoTime, 2_000_000_000L);
    }

    @Override
    public void onProgress(int terminalJobs, int totalJobs, double simulatedSeconds, boolean last) {
        long t = nanoTime.getAsLong();
        if (!last && t - lastPrinted < intervalNanos) {
            return;
        }
        lastPrinted = t;
        out.println("[" + label + "] " + line(terminalJobs, totalJobs, simulatedSeconds, (t - started) / 1e9, last));
        out.flush();
    }

    /** One progress line (exposed for tests). */
    static String line(int done, int total, double simulatedSeconds, double wallSeconds, boolean last) {
        double pct = total == 0 ? 100 : 100.0 * done / total;
        double rate = wallSeconds > 0 ? done / wallSeconds : 0;
        double simRate = wallSeconds > 0 ? simulatedSeconds / wallSeconds : 0;
        String eta = last ? "done" : rate > 0 ? "ETA " + Numbers.duration((total - done) / rate) : "ETA ?";
        return String.format(Locale.ROOT, "%5.1f%% jobs (%,d/%,d)  sim %s  %,.0f jobs/s  %,.0f sim-s/s  wall %s  %s",
                pct, done, total, Numbers.duration(simulatedSeconds), rate, simRate, Numbers.duration(wallSeconds),
                eta);
    }

    /** The run's label. */
    public String label() {
        return label;
    }
}
