package io.quanta.core.policy;

import io.quanta.core.config.PolicyConfig;
import io.quanta.core.decision.Decisions;
import io.quanta.core.model.ClusterSnapshot;
import java.time.Instant;
import java.util.Optional;

/**
 * A whole scheduling policy: a pure function from a cell snapshot to an ordered list of decisions. Implementations
 * are deterministic (no wall clock, no I/O, no unseeded randomness, ties broken by id), stateless between calls
 * (all memory comes through the snapshot), thread-safe (one instance may serve several cells concurrently) and safe
 * to call at any stream time. Passes converge: once the processor has applied a pass's decisions, a further pass at
 * the same stream time decides nothing new, or very little (e.g. a de-fragmenting migration that the previous pass
 * could not yet see was allowed); the reference loop {@code TinyEventLoop} reaches a pass without decisions within
 * a few rounds.
 */
public interface SchedulingPolicy {

    /** Registered name, e.g. {@code tiresias-las}; also the prefix of every decision reason. */
    String name();

    /** The configuration this policy was created from. */
    PolicyConfig config();

    /** Decides what to do now; same snapshot in, same decisions out. */
    Decisions decide(ClusterSnapshot snapshot);

    /**
     * The earliest stream time strictly after {@code snapshot.now()} at which this policy would decide differently
     * even if no input arrives (a running job crossing a queue threshold, a starvation promotion, the end of a time
     * slice or of an introspection window), rounded up to whole milliseconds; empty when only new input can change
     * anything. Call it with the snapshot as it stands after the decisions of the current pass were applied.
     */
    Optional<Instant> nextWakeUp(ClusterSnapshot snapshot);
}
