package io.quanta.node;

import io.quanta.schemas.NodeHeartbeat;
import io.quanta.schemas.RunningAttempt;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends this node's heartbeat: its GPUs, freshly probed, and the attempts it runs, as the next heartbeat of the outbox
 * (replacing one not sent yet). Each heartbeat the broker acknowledges is a contact for {@link SelfFence}. None is sent
 * before {@link #start()} (the command partition is assigned: a heartbeat tells the scheduler that this node listens),
 * nor before the events a previous run journalled are acknowledged (they belong to an earlier epoch), nor once the
 * connector has failed: a node that cannot hear its commands must not look alive.
 */
final class Heartbeater {

    private static final Logger LOG = LoggerFactory.getLogger(Heartbeater.class);

    private final HeartbeatFactory heartbeats;
    private final Supplier<List<RunningAttempt>> running;
    private final NodePublisher publisher;
    private final Runnable onAcknowledged;
    private final BooleanSupplier failed;
    private final Clock clock;
    private final CountDownLatch started = new CountDownLatch(1);

    /**
     * @param running        the attempts running now
     * @param onAcknowledged run when the broker acknowledged a heartbeat
     * @param failed         whether the connector has failed (then no heartbeat goes out)
     */
    Heartbeater(HeartbeatFactory heartbeats, Supplier<List<RunningAttempt>> running, NodePublisher publisher,
                Runnable onAcknowledged, BooleanSupplier failed, Clock clock) {
        this.heartbeats = heartbeats;
        this.running = running;
        this.publisher = publisher;
        this.onAcknowledged = onAcknowledged;
        this.failed = failed;
        this.clock = clock;
    }

    /** From now on heartbeats go out. */
    void start() {
        started.countDown();
    }

    /** Whether {@link #start()} was called. */
    boolean started() {
        return started.getCount() == 0;
    }

    /** Sends a heartbeat now, unless it must not; a failure is logged, and the next heartbeat tries again. */
    void beat() {
        if (!started() || failed.getAsBoolean() || !publisher.journalReplayed()) {
            return;
        }
        try {
            NodeHeartbeat beat = heartbeats.heartbeat(running.get(), clock.instant());
            publisher.heartbeat(beat, onAcknowledged);
        } catch (RuntimeException e) {
            LOG.error("heartbeat failed", e);
        }
    }
}
