package io.quanta.node;

import io.quanta.topics.retry.Backoff;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decouples the node from the broker: items are queued in memory and handed to a {@link Sender} by one background
 * thread, in order, retrying with exponential backoff while the sender fails (broker or registry unreachable). The
 * node's threads never block on Kafka. A "latest" slot keeps only the newest of a kind (heartbeats). Beyond
 * {@code capacity} queued items the oldest droppable item (telemetry) is dropped; other items are never dropped.
 *
 * @param <T> the items
 */
public final class Outbox<T> implements AutoCloseable {

    /** Hands one item over; throws when it cannot (the item is retried). */
    @FunctionalInterface
    public interface Sender<T> {
        void send(T item) throws Exception;
    }

    private static final Logger LOG = LoggerFactory.getLogger(Outbox.class);

    private final Sender<T> sender;
    private final int capacity;
    private final Predicate<T> droppable;
    private final Backoff backoff;
    private final Deque<T> queue = new ArrayDeque<>();
    private final Thread publisher;
    private T latest;
    private boolean inFlight;
    private boolean closed;
    private long dropped;
    private long failures;

    /**
     * Starts the publisher thread.
     *
     * @param capacity queued items beyond which droppable ones are dropped, oldest first
     * @param droppable which items may be dropped
     */
    public Outbox(String name, Sender<T> sender, int capacity, Predicate<T> droppable, Duration initialBackoff,
                  Duration maxBackoff) {
        this.sender = sender;
        this.capacity = capacity;
        this.droppable = droppable;
        this.backoff = new Backoff(initialBackoff, maxBackoff);
        this.publisher = new Thread(this::publish, name);
        this.publisher.setDaemon(true);
        this.publisher.start();
    }

    /** Queues an item behind the others. */
    public synchronized void add(T item) {
        if (closed) {
            LOG.warn("outbox closed; not sent: {}", item);
            return;
        }
        queue.addLast(item);
        if (queue.size() > capacity) {
            dropOldestDroppable();
        }
        notifyAll();
    }

    /** Replaces the pending "latest" item (sent after the queued ones that are already waiting). */
    public synchronized void offerLatest(T item) {
        if (closed) {
            return;
        }
        latest = item;
        notifyAll();
    }

    /** Items waiting (queued, latest slot, or being sent). */
    public synchronized int pending() {
        return queue.size() + (latest != null ? 1 : 0) + (inFlight ? 1 : 0);
    }

    /** Droppable items dropped so far for lack of room. */
    public synchronized long dropped() {
        return dropped;
    }

    /** Failed send attempts so far (each was retried). */
    public synchronized long failures() {
        return failures;
    }

    /**
     * Waits up to {@code timeout} for everything to be sent, then stops the publisher.
     *
     * @return whether everything was sent
     */
    public boolean close(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean drained;
        synchronized (this) {
            while (pending() > 0 && System.nanoTime() < deadline) {
                waitQuietly(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            }
            drained = pending() == 0;
            closed = true;
            notifyAll();
        }
        publisher.interrupt();
        try {
            publisher.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!drained) {
            LOG.warn("outbox closed with {} items not sent", pending());
        }
        return drained;
    }

    @Override
    public void close() {
        close(Duration.ZERO);
    }

    private void publish() {
        while (true) {
            T item = next();
            if (item == null) {
                return;
            }
            try {
                sender.send(item);
                synchronized (this) {
                    inFlight = false;
                    notifyAll();
                }
                backoff.reset();
            } catch (InterruptedException e) {
                requeue(item);
                return;
            } catch (Exception e) {
                requeue(item);
                long backoffMillis = Math.max(1, backoff.next().toMillis()); // wait(0) would wait for ever
                synchronized (this) {
                    if (failures++ % 20 == 0) {
                        LOG.warn("cannot publish yet ({} failures), retrying in {} ms: {}", failures, backoffMillis,
                                e.toString());
                    }
                    if (closed) {
                        return;
                    }
                    waitQuietly(backoffMillis);
                }
            }
        }
    }

    private synchronized T next() {
        while (!closed && queue.isEmpty() && latest == null) {
            waitQuietly(0);
        }
        if (closed) {
            return null;
        }
        T item = queue.pollFirst();
        if (item == null) {
            item = latest;
            latest = null;
        }
        inFlight = item != null;
        return item;
    }

    private synchronized void requeue(T item) {
        inFlight = false;
        queue.addFirst(item);
        notifyAll();
    }

    private void dropOldestDroppable() {
        for (Iterator<T> it = queue.iterator(); it.hasNext(); ) {
            if (droppable.test(it.next())) {
                it.remove();
                if (dropped++ % 1_000 == 0) {
                    LOG.warn("outbox full ({} items): dropped {} telemetry records so far", capacity, dropped);
                }
                return;
            }
        }
    }

    private void waitQuietly(long millis) {
        try {
            wait(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
