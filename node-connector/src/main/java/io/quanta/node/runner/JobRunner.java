package io.quanta.node.runner;

import java.util.List;

/**
 * Runs attempts on this node's GPUs: real processes or simulated jobs. Calls return at once; what happens is reported
 * to the attempt's {@link Listener} (see {@link RunnerEvent} for the sequence). Operations on an attempt the runner
 * does not run (unknown or already ended) do nothing. Implementations are thread-safe.
 */
public interface JobRunner extends AutoCloseable {

    /** Receives the events of the attempts it was given for; may be called from any thread. */
    @FunctionalInterface
    interface Listener {
        void onEvent(RunnerEvent event);
    }

    /** Starts an attempt; reports Started (or Failed when it cannot start) and later how it ended. */
    void start(AttemptLaunch launch, Listener listener);

    /** Asks the attempt to checkpoint and stop; reports Suspended, or Completed/Failed if it ended otherwise. */
    void suspend(AttemptId id);

    /** Stops the attempt at once; reports Failed (or its end, if it had already ended). */
    void kill(AttemptId id);

    /**
     * After a connector restart: re-attaches to an attempt that was running (reports nothing while it still runs), or
     * reports how it ended while the connector was down (Completed, Failed, Suspended, or Lost when unknown).
     *
     * @param suspending whether a suspend had been requested before the restart
     */
    void recover(AttemptId id, boolean suspending, Listener listener);

    /** Progress the runner itself measures, for attempts that run; empty when jobs report their own telemetry. */
    default List<AttemptProgress> progress() {
        return List.of();
    }

    /** Stops watching the attempts. Real processes keep running so that a restarted connector can adopt them. */
    @Override
    void close();
}
