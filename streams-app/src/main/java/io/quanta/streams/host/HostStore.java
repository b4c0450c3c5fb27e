package io.quanta.streams.host;

import io.quanta.streams.StoreSpec;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * An in-memory key-value store for processors run by {@link ProcessorHost} or {@link DirectTopology}: entries are kept
 * serialized and ordered by their key bytes, as Kafka's own in-memory store keeps them, so reads return fresh copies
 * and ranges and prefix scans visit entries in the same order. Own code because Kafka's store stack (metering layer)
 * needs Kafka's internal metrics and task context to initialise; this one needs neither.
 *
 * @param <V> the value type
 */
public final class HostStore<V> implements KeyValueStore<String, V> {

    private static final StringSerializer KEYS = new StringSerializer();
    private static final StringDeserializer KEY_READER = new StringDeserializer();

    private final StoreSpec<V> spec;
    private final NavigableMap<Bytes, byte[]> entries = new TreeMap<>();
    private boolean open = true;

    public HostStore(StoreSpec<V> spec) {
        this.spec = spec;
    }

    @Override
    public void put(String key, V value) {
        byte[] bytes = spec.values().serializer().serialize(spec.name(), value);
        if (bytes == null) {
            entries.remove(keyBytes(key));
        } else {
            entries.put(keyBytes(key), bytes);
        }
    }

    @Override
    public V putIfAbsent(String key, V value) {
        V old = get(key);
        if (old == null) {
            put(key, value);
        }
        return old;
    }

    @Override
    public void putAll(List<KeyValue<String, V>> all) {
        all.forEach(kv -> put(kv.key, kv.value));
    }

    @Override
    public V delete(String key) {
        return value(entries.remove(keyBytes(key)));
    }

    @Override
    public V get(String key) {
        return value(entries.get(keyBytes(key)));
    }

    /** Both ends inclusive; empty when {@code from} sorts after {@code to}, as in Kafka's stores. */
    @Override
    public KeyValueIterator<String, V> range(String from, String to) {
        Bytes low = keyBytes(from);
        Bytes high = keyBytes(to);
        return low.compareTo(high) > 0 ? iterator(Map.of()) : iterator(entries.subMap(low, true, high, true));
    }

    @Override
    public KeyValueIterator<String, V> all() {
        return iterator(entries);
    }

    @Override
    public <PS extends Serializer<P>, P> KeyValueIterator<String, V> prefixScan(P prefix, PS prefixSerializer) {
        Bytes from = Bytes.wrap(prefixSerializer.serialize(spec.name(), prefix));
        Bytes to = Bytes.increment(from);
        return iterator(entries.subMap(from, true, to, false));
    }

    @Override
    public long approximateNumEntries() {
        return entries.size();
    }

    @Override
    public String name() {
        return spec.name();
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        open = true;
    }

    @Override
    public void close() {
        open = false;
    }

    @Override
    public boolean persistent() {
        return false;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    private Bytes keyBytes(String key) {
        return Bytes.wrap(KEYS.serialize(spec.name(), key));
    }

    private V value(byte[] bytes) {
        return bytes == null ? null : spec.values().deserializer().deserialize(spec.name(), bytes);
    }

    /**
     * Iterates over the keys {@code range} has now, each read when reached (a key deleted meanwhile is skipped), as
     * Kafka's in-memory store does: the processor may write to the store while it reads.
     */
    private KeyValueIterator<String, V> iterator(Map<Bytes, byte[]> range) {
        Iterator<Bytes> keys = new ArrayList<>(range.keySet()).iterator();
        return new KeyValueIterator<>() {
            private Bytes current;

            @Override
            public boolean hasNext() {
                while (current == null || !entries.containsKey(current)) {
                    if (!keys.hasNext()) {
                        current = null;
                        return false;
                    }
                    current = keys.next();
                }
                return true;
            }

            @Override
            public KeyValue<String, V> next() {
                String key = peekNextKey();
                KeyValue<String, V> kv = KeyValue.pair(key, value(entries.get(current)));
                current = null;
                return kv;
            }

            @Override
            public String peekNextKey() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return KEY_READER.deserialize(spec.name(), current.get());
            }

            @Override
            public void close() {
                // a copy of the keys: nothing to release
            }
        };
    }
}
