package io.quanta.embedded;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Waits for a named condition with a deadline, checking it every few milliseconds; the alternative to sleeping in
 * tests and start-up code. A condition that throws counts as not yet true; the last exception is reported on timeout.
 */
public final class Await {

    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(25);

    private Await() {
    }

    /**
     * Returns as soon as {@code condition} is true.
     *
     * @throws ConditionTimeoutException naming {@code description} when it is still false after {@code timeout}
     */
    public static void until(String description, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        RuntimeException last = null;
        while (true) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
            } catch (RuntimeException e) {
                last = e;
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new ConditionTimeoutException("Timed out after " + timeout + " waiting for: " + description
                        + (last == null ? "" : " (last error: " + last + ")"), last);
            }
            LockSupport.parkNanos(POLL_NANOS);
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new ConditionTimeoutException("Interrupted while waiting for: " + description, last);
            }
        }
    }

    /** A condition that did not become true in time. */
    public static final class ConditionTimeoutException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public ConditionTimeoutException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
