package io.quanta.streams;

import java.util.regex.Pattern;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;

/** {@link Wiring} into a Kafka Streams {@link Topology}: each operation is the topology's own. */
final class TopologyWiring implements Wiring {

    private final Topology topology;
    private final StoreOptions stores;

    TopologyWiring(Topology topology, StoreOptions stores) {
        this.topology = topology;
        this.stores = stores;
    }

    @Override
    public void source(String name, Deserializer<?> keys, Deserializer<?> values, String topic) {
        topology.addSource(name, keys, values, topic);
    }

    @Override
    public void source(String name, Deserializer<?> keys, Deserializer<?> values, Pattern topics) {
        topology.addSource(name, keys, values, topics);
    }

    @Override
    public void processor(String name, ProcessorSupplier<?, ?, ?, ?> supplier, String... parents) {
        topology.addProcessor(name, supplier, parents);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void sink(String name, String topic, Serializer<?> keys, Serializer<?> values, String... parents) {
        topology.addSink(name, topic, (Serializer<Object>) keys, (Serializer<Object>) values, parents);
    }

    @Override
    public void store(StoreSpec<?> store, String... processors) {
        topology.addStateStore(stores.keyValue(store), processors);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void globalStore(StoreSpec<?> store, String sourceName, Deserializer<?> keys, Deserializer<?> values,
                            String topic, String processorName, ProcessorSupplier<?, ?, Void, Void> processor) {
        topology.addGlobalStore(stores.keyValue(store).withLoggingDisabled(), sourceName,
                (Deserializer<Object>) keys, (Deserializer<Object>) values, topic, processorName,
                (ProcessorSupplier<Object, Object, Void, Void>) processor);
    }
}
