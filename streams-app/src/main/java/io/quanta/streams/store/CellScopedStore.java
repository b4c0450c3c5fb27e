package io.quanta.streams.store;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Typed facade over a key-value store whose entries belong to cells (keys {@code <cellId>|<id>}, see
 * {@link CellKeys}). Read-only when built over an interactive-query view.
 *
 * @param <V> the value type
 */
public final class CellScopedStore<V> {

    private static final StringSerializer KEYS = new StringSerializer();

    private final ReadOnlyKeyValueStore<String, V> reads;
    private final KeyValueStore<String, V> writes;

    private CellScopedStore(ReadOnlyKeyValueStore<String, V> reads, KeyValueStore<String, V> writes) {
        this.reads = reads;
        this.writes = writes;
    }

    /** A read-write facade (inside a processor). */
    public static <V> CellScopedStore<V> of(KeyValueStore<String, V> store) {
        return new CellScopedStore<>(store, store);
    }

    /** A read-only facade (interactive queries). */
    public static <V> CellScopedStore<V> readOnly(ReadOnlyKeyValueStore<String, V> store) {
        return new CellScopedStore<>(store, null);
    }

    public V get(String cellId, String id) {
        return reads.get(CellKeys.key(cellId, id));
    }

    public void put(String cellId, String id, V value) {
        writable().put(CellKeys.key(cellId, id), value);
    }

    /** Removes an entry (a put of null: unlike {@code delete} it does not read and decode the old value). */
    public void delete(String cellId, String id) {
        writable().put(CellKeys.key(cellId, id), null);
    }

    /** The values of one cell, in id order. */
    public List<V> scan(String cellId) {
        List<V> out = new ArrayList<>();
        try (KeyValueIterator<String, V> it = reads.prefixScan(CellKeys.prefix(cellId), KEYS)) {
            it.forEachRemaining(kv -> out.add(kv.value));
        }
        return out;
    }

    /**
     * The entries of one cell whose ids sort below {@code idBound} (an id no entry has), as id to value in id order.
     * A range read, so only those entries are visited.
     */
    public Map<String, V> below(String cellId, String idBound) {
        Map<String, V> out = new LinkedHashMap<>();
        String prefix = CellKeys.prefix(cellId);
        try (KeyValueIterator<String, V> it = reads.range(prefix, prefix + idBound)) {
            it.forEachRemaining(kv -> out.put(kv.key.substring(prefix.length()), kv.value));
        }
        return out;
    }

    /** Every entry as (cell id, value), in key order. */
    public void forEach(BiConsumer<String, V> action) {
        try (KeyValueIterator<String, V> it = reads.all()) {
            while (it.hasNext()) {
                KeyValue<String, V> kv = it.next();
                action.accept(CellKeys.cellOf(kv.key), kv.value);
            }
        }
    }

    private KeyValueStore<String, V> writable() {
        if (writes == null) {
            throw new UnsupportedOperationException("read-only view of a scheduler store");
        }
        return writes;
    }
}
