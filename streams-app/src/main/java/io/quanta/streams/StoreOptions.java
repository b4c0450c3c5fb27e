package io.quanta.streams;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * Which state stores the topology uses: persistent RocksDB stores with changelogs (production), or in-memory stores
 * (tests under TopologyTestDriver, for speed), with or without changelogs. The processors
 * and store facades are the same in every case.
 *
 * @param kind    RocksDB or in-memory
 * @param logging whether every store has a changelog topic (needed to restore state on another instance)
 */
public record StoreOptions(Kind kind, boolean logging) {

    /** The store implementation. */
    public enum Kind { PERSISTENT, IN_MEMORY }

    /** RocksDB stores with changelogs: production. */
    public static StoreOptions persistent() {
        return new StoreOptions(Kind.PERSISTENT, true);
    }

    /** In-memory stores with changelogs (tests that check changelog names or restoration). */
    public static StoreOptions inMemory() {
        return new StoreOptions(Kind.IN_MEMORY, true);
    }

    /**
     * In-memory stores without changelogs: the fastest choice for TopologyTestDriver runs, where the driver would
     * otherwise keep every changelog record in memory.
     */
    public static StoreOptions inMemoryWithoutChangelogs() {
        return new StoreOptions(Kind.IN_MEMORY, false);
    }

    /** A key-value store builder of this kind, caching off (the processor keeps its own write-through cache). */
    public <V> StoreBuilder<KeyValueStore<String, V>> keyValue(StoreSpec<V> spec) {
        KeyValueBytesStoreSupplier supplier = kind == Kind.PERSISTENT ? Stores.persistentKeyValueStore(spec.name())
                : Stores.inMemoryKeyValueStore(spec.name());
        StoreBuilder<KeyValueStore<String, V>> builder = Stores.keyValueStoreBuilder(supplier, Serdes.String(),
                spec.values()).withCachingDisabled();
        return logging ? builder : builder.withLoggingDisabled();
    }
}
