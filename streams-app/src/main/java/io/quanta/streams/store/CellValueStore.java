package io.quanta.streams.store;

import java.util.function.BiConsumer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Typed facade over a key-value store holding one value per cell (key = cell id). Read-only when built over an
 * interactive-query view.
 *
 * @param <V> the value type
 */
public final class CellValueStore<V> {

    private final ReadOnlyKeyValueStore<String, V> reads;
    private final KeyValueStore<String, V> writes;

    private CellValueStore(ReadOnlyKeyValueStore<String, V> reads, KeyValueStore<String, V> writes) {
        this.reads = reads;
        this.writes = writes;
    }

    /** A read-write facade (inside a processor). */
    public static <V> CellValueStore<V> of(KeyValueStore<String, V> store) {
        return new CellValueStore<>(store, store);
    }

    /** A read-only facade (interactive queries, simulator). */
    public static <V> CellValueStore<V> readOnly(ReadOnlyKeyValueStore<String, V> store) {
        return new CellValueStore<>(store, null);
    }

    public V get(String cellId) {
        return reads.get(cellId);
    }

    public void put(String cellId, V value) {
        if (writes == null) {
            throw new UnsupportedOperationException("read-only view of a scheduler store");
        }
        writes.put(cellId, value);
    }

    /** Every (cell id, value), in cell order. */
    public void forEach(BiConsumer<String, V> action) {
        try (KeyValueIterator<String, V> it = reads.all()) {
            while (it.hasNext()) {
                KeyValue<String, V> kv = it.next();
                action.accept(kv.key, kv.value);
            }
        }
    }
}
