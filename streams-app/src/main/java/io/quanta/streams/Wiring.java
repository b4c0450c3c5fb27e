package io.quanta.streams;

import java.util.regex.Pattern;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;

/**
 * What {@link SchedulerTopology} wires the scheduler into: a Kafka Streams {@link Topology} ({@link #of}), or a
 * {@link io.quanta.streams.host.DirectTopology} that runs the same processors in the calling thread (simulation).
 * The operations are those of {@link Topology} that the scheduler uses, with stores given as {@link StoreSpec}s.
 */
public interface Wiring {

    void source(String name, Deserializer<?> keys, Deserializer<?> values, String topic);

    /** A source reading every topic whose name matches {@code topics} (tenant topics). */
    void source(String name, Deserializer<?> keys, Deserializer<?> values, Pattern topics);

    void processor(String name, ProcessorSupplier<?, ?, ?, ?> supplier, String... parents);

    void sink(String name, String topic, Serializer<?> keys, Serializer<?> values, String... parents);

    void store(StoreSpec<?> store, String... processors);

    /** A global store (a copy on every instance, fed from {@code topic} by {@code processor}, without a changelog). */
    void globalStore(StoreSpec<?> store, String sourceName, Deserializer<?> keys, Deserializer<?> values, String topic,
                     String processorName, ProcessorSupplier<?, ?, Void, Void> processor);

    /** Wires into a Kafka Streams topology, with stores of the kind {@code stores} says. */
    static Wiring of(Topology topology, StoreOptions stores) {
        return new TopologyWiring(topology, stores);
    }
}
