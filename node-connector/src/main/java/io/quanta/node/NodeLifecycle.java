package io.quanta.node;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * The node connector's life cycle and its shutdown order: started once, closed once (from any thread; later calls do
 * nothing). Each part that holds a thread or a resource registers how to release it ({@link #onClose}) as soon as it
 * exists, and closing runs those steps last registered first. So the shutdown order is the start order reversed, and a
 * start that fails half-way releases exactly what it took. A part that fails for good ({@link #stopOnFailure}) records
 * why and closes the connector from a thread of its own.
 */
final class NodeLifecycle {

    private final String nodeId;
    private final Deque<Runnable> onClose = new ArrayDeque<>();
    private final CountDownLatch terminated = new CountDownLatch(1);
    private volatile RuntimeException failure;
    private boolean started;
    private boolean closed;

    NodeLifecycle(String nodeId) {
        this.nodeId = nodeId;
    }

    /**
     * Runs {@code startup}, once; when it throws, closes (releasing what it registered) and rethrows. A
     * {@link #close()} from another thread waits until it has returned.
     */
    synchronized void start(Runnable startup) {
        if (started) {
            throw new IllegalStateException("node connector " + nodeId + " already started");
        }
        started = true;
        try {
            startup.run();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** How to release what was just started: run at close, after the steps registered later and before earlier ones. */
    synchronized void onClose(Runnable step) {
        onClose.push(step);
    }

    /**
     * Runs the registered steps, last registered first (a step that throws ends the close with its exception), then
     * counts as terminated. Only the first call does anything.
     */
    void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            for (Runnable step = nextStep(); step != null; step = nextStep()) {
                step.run();
            }
        } finally {
            terminated.countDown();
        }
    }

    /**
     * Stops the connector because one of its parts failed for good: records why ({@link #failure()}), runs
     * {@code beforeStopping} in the calling thread, then closes from a thread of its own (non-daemon, so the JVM waits
     * for it): the calling thread may be one that closing waits for.
     */
    void stopOnFailure(Throwable e, Runnable beforeStopping) {
        failure = e instanceof RuntimeException r ? r : new IllegalStateException(e);
        beforeStopping.run();
        Thread stopper = new Thread(this::close, "quanta-node-failed");
        stopper.setDaemon(false);
        stopper.start();
    }

    /** Whether a part failed for good ({@link #stopOnFailure}). */
    boolean failed() {
        return failure != null;
    }

    /** Why the connector stopped on its own, if it did. */
    Optional<RuntimeException> failure() {
        return Optional.ofNullable(failure);
    }

    /** Blocks until {@link #close()} has finished. */
    void awaitTermination() throws InterruptedException {
        terminated.await();
    }

    private synchronized Runnable nextStep() {
        return onClose.poll();
    }
}
