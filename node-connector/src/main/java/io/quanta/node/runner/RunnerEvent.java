package io.quanta.node.runner;

import java.time.Instant;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * What a runner says about an attempt. For every started attempt a runner reports {@link Started} (or {@link Failed}
 * if it could not start) and then exactly one end: {@link Completed}, {@link Failed}, {@link Suspended} or
 * {@link Lost}.
 */
public sealed interface RunnerEvent {

    /** The attempt this event is about. */
    AttemptId attempt();

    /** When it happened. */
    Instant at();

    /** Whether the attempt no longer runs after this event. */
    default boolean isEnd() {
        return !(this instanceof Started);
    }

    /** The attempt runs. */
    record Started(AttemptId attempt, Instant at) implements RunnerEvent {
        public Started {
            Objects.requireNonNull(attempt, "attempt");
            Objects.requireNonNull(at, "at");
        }
    }

    /** The attempt finished its work. */
    record Completed(AttemptId attempt, Instant at) implements RunnerEvent {
        public Completed {
            Objects.requireNonNull(attempt, "attempt");
            Objects.requireNonNull(at, "at");
        }
    }

    /**
     * The attempt ended without finishing and without a checkpoint.
     *
     * @param exitCode exit status of the process when known (128 + signal number for a signal)
     * @param message what happened and the last lines of its stderr
     */
    record Failed(AttemptId attempt, Instant at, OptionalInt exitCode, String message) implements RunnerEvent {
        public Failed {
            Objects.requireNonNull(attempt, "attempt");
            Objects.requireNonNull(at, "at");
            Objects.requireNonNull(exitCode, "exitCode");
            Objects.requireNonNull(message, "message");
        }
    }

    /**
     * The attempt checkpointed on request and stopped; a new attempt resumes from {@code checkpointRef}.
     */
    record Suspended(AttemptId attempt, Instant at, String checkpointRef) implements RunnerEvent {
        public Suspended {
            Objects.requireNonNull(attempt, "attempt");
            Objects.requireNonNull(at, "at");
            Objects.requireNonNull(checkpointRef, "checkpointRef");
        }
    }

    /** The runner cannot tell what became of the attempt (e.g. it ended while the connector was down, no trace). */
    record Lost(AttemptId attempt, Instant at, String message) implements RunnerEvent {
        public Lost {
            Objects.requireNonNull(attempt, "attempt");
            Objects.requireNonNull(at, "at");
            Objects.requireNonNull(message, "message");
        }
    }
}
