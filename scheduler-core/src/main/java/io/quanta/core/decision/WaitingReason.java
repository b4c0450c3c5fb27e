package io.quanta.core.decision;

/**
 * Why a job waits after a pass, in two parts: its {@code position} in the policy's order (rank, queue, index,
 * attained service), which moves whenever any job arrives or leaves, and the {@code cause} that blocks it (what it
 * lacks, whom it waits behind). The cell publishes a new reason only when the cause changed: under load every
 * arrival shifts every waiting job's rank, and publishing each shift would rewrite every waiting job's state and
 * status in every pass.
 *
 * @param position its place in the order, ending with {@link #SEPARATOR}, e.g. {@code "priority 3 of 40 waiting
 *                 (queue 1, attained 120 GPU-s): "}
 * @param cause    what blocks it, e.g. {@code "needs 8 GPUs at once; 4 of 16 GPUs are free"}
 */
public record WaitingReason(String position, String cause) {

    /** Ends every position. */
    public static final String SEPARATOR = "): ";

    /** The reason as users read it. */
    public String text() {
        return position + cause;
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
