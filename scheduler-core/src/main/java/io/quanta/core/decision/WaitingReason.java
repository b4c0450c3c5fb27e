package io.quanta.core.decision;

import java.util.function.Supplier;

/**
 * Why a job waits after a pass, in two parts: its {@code position} in the policy's order (rank, queue, index,
 * attained service), which moves whenever any job arrives or leaves, and the {@code cause} that blocks it (what it
 * lacks, whom it waits behind). The cell publishes a new reason only when the cause changed: under load every
 * arrival shifts every waiting job's rank, and publishing each shift would rewrite every waiting job's state and
 * status in every pass.
 *
 * @param position its place in the order, ending with {@link #SEPARATOR}, e.g. {@code "priority 3 of 40 waiting
 *                 (queue 1, attained 120 GPU-s): "}; computed only when the reason is shown (a pass leaves thousands
 *                 of jobs waiting under load, and most of them keep their cause), from the pass's own ranking
 * @param cause    what blocks it, e.g. {@code "needs 8 GPUs at once; 4 of 16 GPUs are free"}
 */
public record WaitingReason(Supplier<String> position, String cause) {

    /** A reason whose position is already known. */
    public WaitingReason(String position, String cause) {
        this(() -> position, cause);
    }

    /** Ends every position. */
    public static final String SEPARATOR = "): ";

    /** Equal when the texts are (the position is a function, so the record's own equality would not say). */
    @Override
    public boolean equals(Object o) {
        return o instanceof WaitingReason other && text().equals(other.text());
    }

    @Override
    public int hashCode() {
        return text().hashCode();
    }

    @Override
    public String toString() {
        return text();
    }

    /** The reason as users read it. */
    public String text() {
        return position.get() + cause;
    }

    /** True when {@code shown} (a reason published before) names the same cause, whatever its position said. */
    public boolean sameCauseAs(String shown) {
        if (shown == null || !shown.endsWith(cause)) {
            return false;
        }
        int end = shown.length() - cause.length();
        return shown.indexOf(SEPARATOR) == end - SEPARATOR.length();
    }
}
