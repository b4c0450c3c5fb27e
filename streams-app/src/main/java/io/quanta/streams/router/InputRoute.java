package io.quanta.streams.router;

import io.quanta.schemas.SourceRef;
import java.time.Instant;
import java.util.function.Function;
import org.apache.kafka.streams.processor.StateStore;

/**
 * The routing rule of one input topic: validates a decoded record and says which cell inboxes it goes to, or why it
 * is refused. Implementations keep their lookup state (job or node to cell) in the stores they are given.
 *
 * @param <V> the decoded value type of the topic
 */
public interface InputRoute<V> {

    /** Binds the route to its stores (by name). Called once per task before the first record. */
    void init(Function<String, StateStore> stores);

    /**
     * Routes one record.
     *
     * @param key    the record key (null when absent)
     * @param value  the decoded value
     * @param source topic, partition and offset of the record
     * @param at     the record's timestamp
     */
    RouteOutcome route(String key, V value, SourceRef source, Instant at);

    /**
     * Whether this topic's values may hold a job's command line and environment (submissions): their dead letters
     * then keep no copy of the value ({@link io.quanta.streams.deadletter.DeadLetters#withoutValue}).
     */
    default boolean carriesJobSecrets() {
        return false;
    }
}
