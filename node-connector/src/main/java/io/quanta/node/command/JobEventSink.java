package io.quanta.node.command;

import io.quanta.schemas.JobEvent;

/** Where the command handler sends the events of this node's attempts (Kafka in production, a list in tests). */
@FunctionalInterface
public interface JobEventSink {

    /** Publishes an event; must not block for long and must not call back into the handler. */
    void publish(JobEvent event);
}
