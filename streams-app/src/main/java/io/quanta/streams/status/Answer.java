package io.quanta.streams.status;

/**
 * The outcome of a status query on this instance: the value, not found, owned by another instance (ask it at
 * {@code path}), or not answerable right now (e.g. during a rebalance).
 *
 * @param <T> the value type
 */
public sealed interface Answer<T> {

    /** The value. */
    record Found<T>(T value) implements Answer<T> {
    }

    /** Nothing with this id. */
    record NotFound<T>(String message) implements Answer<T> {
    }

    /** Another instance owns the key: forward the query to {@code host:port} at {@code path}. */
    record Elsewhere<T>(String host, int port, String path) implements Answer<T> {
    }

    /** The owner is not known right now. */
    record Unavailable<T>(String message) implements Answer<T> {
    }
}
