package io.quanta.bench;

/**
 * How many records a steady background source owes at a given instant: {@code rate} per second on an absolute
 * schedule (a late tick catches up within the current rate) that starts again whenever the rate changes, so that
 * records not sent while the rate was 0 are skipped, never sent in one burst when the source resumes. The floor's
 * background and the simulated nodes' telemetry use the same rule, so that both sides of a latency comparison get the
 * same shape of load. (The nodes once kept their schedule across pauses and sent 20,000 telemetry records at the start
 * of every measured Quanta window: that burst was the p99 tail blamed on Quanta.) Not thread-safe: one ticking thread.
 */
final class Pacer {

    private double rate;
    private long began;
    private long sent;

    /**
     * The records to send now, at {@code perSecond} (0 or less: none), given {@link System#nanoTime}-like
     * {@code nowNanos}; counts them as sent.
     */
    long due(double perSecond, long nowNanos) {
        double wanted = Math.max(0, perSecond);
        if (wanted != rate) {
            rate = wanted;
            began = nowNanos;
            sent = 0;
        }
        long due = (long) ((nowNanos - began) / 1e9 * rate);
        long owed = Math.max(0, due - sent);
        sent += owed;
        return owed;
    }
}
