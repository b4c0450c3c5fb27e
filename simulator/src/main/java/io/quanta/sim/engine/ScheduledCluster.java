package io.quanta.sim.engine;

import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobSubmitted;
import io.quanta.schemas.JobTelemetry;
import io.quanta.schemas.NodeHeartbeat;
import java.time.Instant;
import java.util.Optional;

/**
 * The scheduler side of a simulation, seen as a black box fed with timestamped input records: in production this is
 * the real scheduler topology run by a {@code DirectTopology}. Inputs must come in non-decreasing time order.
 * Outputs accumulate until {@link #drain()}.
 */
public interface ScheduledCluster extends AutoCloseable {

    /** A user submits a job at {@code at} (the record time on {@code quanta.jobs.submissions}). */
    void submit(JobSubmitted job, Instant at);

    /** A node connector's heartbeat, at its {@code sentAt}. */
    void heartbeat(NodeHeartbeat heartbeat);

    /** A node connector's job event, at its {@code at}. */
    void event(JobEvent event);

    /** A node connector's telemetry, at its {@code reportedAt}. */
    void telemetry(JobTelemetry telemetry);

    /** Everything the scheduler wrote since the last call. */
    SchedulerOutput drain();

    /**
     * The earliest time at which the cell would act without any new input (a queue threshold crossing, a starvation
     * promotion, the end of a time slice, a liveness deadline), i.e. when the simulator must give it an input to move
     * its stream time; empty when only new input can change anything.
     */
    Optional<Instant> nextWakeUp();

    /** The number of input records given so far. */
    long inputRecords();

    @Override
    void close();
}
