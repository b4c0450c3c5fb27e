package io.quanta.node.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for a condition with a deadline, polling; fails naming the condition when the deadline passes. */
public final class Await {

    private Await() {
    }

    /** Returns as soon as {@code condition} holds; throws {@link AssertionError} after {@code timeout}. */
    public static void until(String description, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for: " + description);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for: " + description, e);
            }
        }
    }
}
