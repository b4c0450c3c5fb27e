package io.quanta.cli.observe;

import io.quanta.schemas.DeadLetter;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.schemas.SchedulingDecision;

/**
 * Receives the records a {@link ClusterObserver} reads, one call per record, always from the observer's single
 * thread (implementations that are read from other threads synchronise themselves). Every method does nothing by
 * default.
 */
public interface RecordSink {

    /** A job status (compacted topic: the latest per job wins); {@code status} is never null. */
    default void status(JobStatus status) {
    }

    /** A scheduling decision of the audit log. */
    default void decision(SchedulingDecision decision) {
    }

    /** A dead-lettered input. */
    default void deadLetter(DeadLetter letter) {
    }

    /** A node heartbeat. */
    default void heartbeat(NodeHeartbeat heartbeat) {
    }

    /** A job event from a node. */
    default void event(JobEvent event) {
    }

    /** A telemetry window of a job. */
    default void telemetry(io.quanta.schemas.JobTelemetry telemetry) {
    }

    /** A command to a node. */
    default void command(NodeCommand command) {
    }

    /** The observer has read every topic up to the end it saw at start (initial state complete). */
    default void caughtUp() {
    }
}
