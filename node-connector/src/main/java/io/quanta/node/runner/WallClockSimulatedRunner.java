package io.quanta.node.runner;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Drives a {@link SimulatedJobRunner} on real time for live operation ({@code quanta node --backend simulated},
 * {@code quanta local}): before every operation it advances the simulation to the clock's time, and it wakes itself up
 * when the next simulated event is due. Durations are compressed by the runner's own {@code timeCompression}; event
 * timestamps are the clock's. The simulation logic stays clock-free.
 */
public final class WallClockSimulatedRunner implements JobRunner {

    private final SimulatedJobRunner runner;
    private final Clock clock;
    private final ScheduledExecutorService wakeUps;
    private ScheduledFuture<?> nextWakeUp;

    /** Drives {@code runner}, which must have been created with {@code clock.instant()} (or earlier) as its start. */
    public WallClockSimulatedRunner(SimulatedJobRunner runner, Clock clock) {
        this.runner = runner;
        this.clock = clock;
        this.wakeUps = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "quanta-simulated-gpus");
            t.setDaemon(true);
            return t;
        });
    }

    /** The simulation being driven (for its GPU usage, speeds and progress). */
    public SimulatedJobRunner simulation() {
        return runner;
    }

    @Override
    public void start(AttemptLaunch launch, Listener listener) {
        catchUp();
        runner.start(launch, listener);
        reschedule();
    }

    @Override
    public void suspend(AttemptId id) {
        catchUp();
        runner.suspend(id);
        reschedule();
    }

    @Override
    public void kill(AttemptId id) {
        catchUp();
        runner.kill(id);
        reschedule();
    }

    @Override
    public void recover(AttemptId id, boolean suspending, Listener listener) {
        runner.recover(id, suspending, listener);
    }

    @Override
    public List<AttemptProgress> progress() {
        catchUp();
        reschedule();
        return runner.progress();
    }

    @Override
    public synchronized void close() {
        if (nextWakeUp != null) {
            nextWakeUp.cancel(false);
        }
        wakeUps.shutdownNow();
    }

    private void catchUp() {
        runner.catchUpTo(clock.instant());
    }

    private synchronized void reschedule() {
        if (wakeUps.isShutdown()) {
            return;
        }
        if (nextWakeUp != null) {
            nextWakeUp.cancel(false);
            nextWakeUp = null;
        }
        Optional<Instant> next = runner.nextEventTime();
        if (next.isEmpty()) {
            return;
        }
        long delayMillis = Math.max(0, Duration.between(clock.instant(), next.get()).toMillis() + 1);
        nextWakeUp = wakeUps.schedule(() -> {
            catchUp();
            reschedule();
        }, delayMillis, TimeUnit.MILLISECONDS);
    }
}
