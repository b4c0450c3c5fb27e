package io.quanta.streams.host;

import io.quanta.streams.StoreSpec;
import io.quanta.streams.Wiring;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Runs a wired topology in the calling thread, one record at a time, with {@link HostStore}s and a wall clock the
 * caller moves: the simulator's scheduler. It does what a single Kafka Streams task over partition 0 of every topic
 * does, in the same order: a piped record gets the topic's next offset, its source deserializes it, the processors
 * run depth-first, sinks serialize; once the record is processed, every record the sinks wrote is kept as output of
 * its topic and, when that topic is also a source (the inbox), processed in turn, in the order written. Record-driven
 * processors only (no punctuators), no pattern sources or global stores (tenant topics and node authentication).
 *
 * <p>Own code rather than Kafka's {@code TopologyTestDriver}: that is a test library, and only what runs in
 * production ships; the processors, serdes and wiring are the production ones either way.
 */
public final class DirectTopology implements Wiring {

    /** A record a sink wrote. */
    public record Produced(String topic, byte[] key, byte[] value, long timestamp, Headers headers) {
    }

    private record Source(String name, String topic, Deserializer<?> keys, Deserializer<?> values) {
    }

    private record Sink(String name, String topic, Serializer<Object> keys, Serializer<Object> values) {
    }

    private final String applicationId;
    private final Map<String, Source> sources = new HashMap<>();
    private final Map<String, Sink> sinks = new HashMap<>();
    private final Map<String, ProcessorSupplier<?, ?, ?, ?>> suppliers = new LinkedHashMap<>();
    private final Map<String, List<String>> children = new HashMap<>();
    private final Map<String, StoreSpec<?>> storeSpecs = new LinkedHashMap<>();
    private final Map<String, List<String>> storesOf = new HashMap<>();
    private final Map<String, HostStore<?>> stores = new LinkedHashMap<>();
    private final Map<String, Processor<Object, Object, Object, Object>> processors = new LinkedHashMap<>();
    private final Map<String, HostContext> contexts = new HashMap<>();
    private final Map<String, Long> offsets = new HashMap<>();
    private final Map<String, List<Produced>> outputs = new HashMap<>();
    private final HostMetrics metrics = new HostMetrics();
    private List<Produced> written = new ArrayList<>();
    private HostContext.Metadata reading;
    private long wallClockMs;

    /** An empty topology to wire; {@code wallClockMs} is where its wall clock starts. */
    public DirectTopology(String applicationId, long wallClockMs) {
        this.applicationId = applicationId;
        this.wallClockMs = wallClockMs;
    }

    @Override
    public void source(String name, Deserializer<?> keys, Deserializer<?> values, String topic) {
        Source source = new Source(name, topic, keys, values);
        if (sources.putIfAbsent(topic, source) != null) {
            throw new IllegalArgumentException("topic " + topic + " already has a source");
        }
    }

    @Override
    public void source(String name, Deserializer<?> keys, Deserializer<?> values, Pattern topics) {
        throw new UnsupportedOperationException("a direct topology reads named topics only, not " + topics);
    }

    @Override
    public void processor(String name, ProcessorSupplier<?, ?, ?, ?> supplier, String... parents) {
        suppliers.put(name, supplier);
        link(name, parents);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void sink(String name, String topic, Serializer<?> keys, Serializer<?> values, String... parents) {
        sinks.put(name, new Sink(name, topic, (Serializer<Object>) keys, (Serializer<Object>) values));
        link(name, parents);
    }

    @Override
    public void store(StoreSpec<?> store, String... processorNames) {
        storeSpecs.put(store.name(), store);
        for (String processor : processorNames) {
            storesOf.computeIfAbsent(processor, p -> new ArrayList<>()).add(store.name());
        }
    }

    @Override
    public void globalStore(StoreSpec<?> store, String sourceName, Deserializer<?> keys, Deserializer<?> values,
                            String topic, String processorName, ProcessorSupplier<?, ?, Void, Void> processor) {
        throw new UnsupportedOperationException("a direct topology has no global stores (" + store.name() + ")");
    }

    /** Creates the stores and initialises every processor; call once, after wiring. */
    @SuppressWarnings("unchecked")
    public DirectTopology start() {
        storeSpecs.values().forEach(spec -> stores.put(spec.name(), new HostStore<>(spec)));
        for (var entry : suppliers.entrySet()) {
            String name = entry.getKey();
            Map<String, HostStore<?>> own = new LinkedHashMap<>();
            storesOf.getOrDefault(name, List.of()).forEach(store -> own.put(store, stores.get(store)));
            HostContext context = new HostContext(applicationId, own, metrics, () -> wallClockMs,
                    (child, record) -> forward(name, child, (Record<Object, Object>) record));
            Processor<Object, Object, Object, Object> processor =
                    (Processor<Object, Object, Object, Object>) entry.getValue().get();
            contexts.put(name, context);
            processors.put(name, processor);
            processor.init(context);
        }
        return this;
    }

    /** Moves the wall clock the processors see forward. */
    public void advanceWallClockTime(Duration by) {
        wallClockMs += by.toMillis();
    }

    /**
     * Processes a record read from {@code topic} (serialized), then the records it led to on source topics; what the
     * sinks wrote is kept for {@link #readOutput}.
     */
    public void pipe(String topic, byte[] key, byte[] value, long timestamp, Headers headers) {
        Source source = sources.get(topic);
        if (source == null) {
            throw new IllegalArgumentException("no source reads topic " + topic);
        }
        long offset = offsets.merge(topic, 1L, Long::sum) - 1;
        Record<Object, Object> record = new Record<>(source.keys().deserialize(topic, headers, key),
                source.values().deserialize(topic, headers, value), timestamp, headers);
        List<Produced> outer = written;
        List<Produced> mine = new ArrayList<>();
        written = mine;
        reading = new HostContext.Metadata(topic, 0, offset);
        try {
            children.getOrDefault(source.name(), List.of()).forEach(child -> deliver(child, record));
        } finally {
            written = outer;
        }
        for (Produced p : mine) {
            outputs.computeIfAbsent(p.topic(), t -> new ArrayList<>()).add(p);
            if (sources.containsKey(p.topic())) {
                pipe(p.topic(), p.key(), p.value(), p.timestamp(), p.headers());
            }
        }
    }

    /** Pipes a record with no headers. */
    public void pipe(String topic, byte[] key, byte[] value, long timestamp) {
        pipe(topic, key, value, timestamp, new RecordHeaders());
    }

    /** The records written to {@code topic} since the last call, oldest first. */
    public List<Produced> readOutput(String topic) {
        List<Produced> out = outputs.remove(topic);
        return out == null ? List.of() : out;
    }

    /** A store of the topology, to read (e.g. what a cell recorded). */
    @SuppressWarnings("unchecked")
    public <V> HostStore<V> store(String name) {
        HostStore<?> store = stores.get(name);
        if (store == null) {
            throw new IllegalArgumentException("no store " + name);
        }
        return (HostStore<V>) store;
    }

    /** Closes every processor and store. */
    public void close() {
        processors.values().forEach(Processor::close);
        stores.values().forEach(HostStore::close);
    }

    private void link(String name, String... parents) {
        for (String parent : parents) {
            children.computeIfAbsent(parent, p -> new ArrayList<>()).add(name);
        }
    }

    private void forward(String from, String child, Record<Object, Object> record) {
        List<String> own = children.getOrDefault(from, List.of());
        if (child == null) {
            own.forEach(c -> deliver(c, record));
        } else if (own.contains(child)) {
            deliver(child, record);
        } else {
            throw new IllegalArgumentException(from + " has no child " + child);
        }
    }

    private void deliver(String node, Record<Object, Object> record) {
        Sink sink = sinks.get(node);
        if (sink != null) {
            written.add(new Produced(sink.topic(), sink.keys().serialize(sink.topic(), record.headers(), record.key()),
                    sink.values().serialize(sink.topic(), record.headers(), record.value()), record.timestamp(),
                    record.headers()));
        } else {
            contexts.get(node).current(reading, record.timestamp());
            processors.get(node).process(record);
        }
    }
}
