package io.quanta.streams.host;

import java.io.File;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.StreamsMetrics;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.Punctuator;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * The context of one hosted processor: its stores, the metadata of the record being processed, a wall clock, and
 * where forwarded records go. Record-driven processors only: scheduling a punctuator fails, since when one fires
 * depends on a task's whole stream time, which a host does not model.
 */
final class HostContext implements ProcessorContext<Object, Object> {

    /** Receives what the processor forwards; {@code child} is null when it forwards to all its children. */
    interface Forwarder {
        void forward(String child, Record<?, ?> record);
    }

    /** Metadata of the record being processed: where it was read. */
    record Metadata(String topic, int partition, long offset) implements RecordMetadata {
    }

    private static final TaskId TASK = new TaskId(0, 0);

    private final String applicationId;
    private final Map<String, ? extends StateStore> stores;
    private final StreamsMetrics metrics;
    private final LongSupplier wallClockMs;
    private final Forwarder forwarder;
    private Metadata metadata;
    private long streamTimeMs = -1;

    HostContext(String applicationId, Map<String, ? extends StateStore> stores, StreamsMetrics metrics,
                LongSupplier wallClockMs, Forwarder forwarder) {
        this.applicationId = applicationId;
        this.stores = stores;
        this.metrics = metrics;
        this.wallClockMs = wallClockMs;
        this.forwarder = forwarder;
    }

    /** Sets the record about to be processed. */
    void current(Metadata metadata, long timestamp) {
        this.metadata = metadata;
        this.streamTimeMs = Math.max(streamTimeMs, timestamp);
    }

    @Override
    public <K, V> void forward(Record<K, V> record) {
        forwarder.forward(null, record);
    }

    @Override
    public <K, V> void forward(Record<K, V> record, String childName) {
        forwarder.forward(childName, record);
    }

    @Override
    public String applicationId() {
        return applicationId;
    }

    @Override
    public TaskId taskId() {
        return TASK;
    }

    @Override
    public Optional<RecordMetadata> recordMetadata() {
        return Optional.ofNullable(metadata);
    }

    @Override
    public Serde<?> keySerde() {
        return null;
    }

    @Override
    public Serde<?> valueSerde() {
        return null;
    }

    @Override
    public File stateDir() {
        return null;
    }

    @Override
    public StreamsMetrics metrics() {
        return metrics;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <S extends StateStore> S getStateStore(String name) {
        StateStore store = stores.get(name);
        if (store == null) {
            throw new IllegalArgumentException("no store " + name + " is connected (stores: " + stores.keySet() + ")");
        }
        return (S) store;
    }

    @Override
    public Cancellable schedule(Duration interval, PunctuationType type, Punctuator callback) {
        throw new UnsupportedOperationException("a hosted processor cannot schedule a punctuator: hosts run "
                + "record-driven processors only (when a punctuator fires depends on the whole task's time)");
    }

    @Override
    public Cancellable schedule(Instant startTime, Duration interval, PunctuationType type, Punctuator callback) {
        return schedule(interval, type, callback);
    }

    @Override
    public void commit() {
        // in-memory stores: nothing to commit
    }

    @Override
    public Map<String, Object> appConfigs() {
        return Map.of();
    }

    @Override
    public Map<String, Object> appConfigsWithPrefix(String prefix) {
        return Map.of();
    }

    @Override
    public long currentSystemTimeMs() {
        return wallClockMs.getAsLong();
    }

    @Override
    public long currentStreamTimeMs() {
        return streamTimeMs;
    }
}
