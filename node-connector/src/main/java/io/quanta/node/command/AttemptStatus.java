package io.quanta.node.command;

/** Where an attempt is on this node, as the command handler records it. */
public enum AttemptStatus {
    /** START applied, runner not yet confirmed. */
    STARTING,
    /** Runs. */
    RUNNING,
    /** SUSPEND applied, waiting for the checkpoint. */
    SUSPENDING,
    /** KILL applied, waiting for the process to go. */
    KILLING,
    /** Finished its work. */
    COMPLETED,
    /** Ended without finishing and without a checkpoint. */
    FAILED,
    /** Checkpointed and stopped. */
    SUSPENDED,
    /** Ended in an unknown way (e.g. while the connector was down). */
    LOST;

    /** Whether the attempt still holds its GPUs (appears in the heartbeat's running list). */
    public boolean isActive() {
        return this == STARTING || this == RUNNING || this == SUSPENDING || this == KILLING;
    }
}
