package io.quanta.audit.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * Hosts one processor the way a Kafka Streams task does, with real state stores, and feeds it records with the
 * metadata (topic, partition, offset) of the original log, so offsets the processor records come out exactly as they
 * did live. {@link #restart} closes the processor and creates a new one over the same stores, whose {@code init}
 * reloads from them: what a task does after a restart on restored stores. Built on Kafka's
 * {@link MockProcessorContext} rather than a {@code TopologyTestDriver}, which numbers input offsets itself from 0
 * and wipes its stores on close.
 */
final class ProcessorHarness<KIn, VIn> implements AutoCloseable {

    /** One output: the child (sink) it was forwarded to and the record. */
    record Output(String child, Record<?, ?> record) {
    }

    private final MockProcessorContext<Object, Object> context = new MockProcessorContext<>(properties());
    private final List<StateStore> stores = new ArrayList<>();
    private Processor<KIn, VIn, ?, ?> processor;

    ProcessorHarness(List<StoreBuilder<?>> storeBuilders) {
        for (StoreBuilder<?> builder : storeBuilders) {
            StateStore store = builder.build();
            store.init(context.getStateStoreContext(), store);
            context.addStateStore(store);
            stores.add(store);
        }
    }

    /** Closes the current processor, if any, and starts a new one from {@code supplier} on the same stores. */
    @SuppressWarnings("unchecked")
    void restart(ProcessorSupplier<KIn, VIn, ?, ?> supplier) {
        if (processor != null) {
            processor.close();
        }
        processor = supplier.get();
        ((Processor<KIn, VIn, Object, Object>) processor).init(context);
        if (!context.scheduledPunctuators().isEmpty()) {
            throw new ReplayException("the processor scheduled a punctuator: audit replay reproduces record-driven "
                    + "processors only (a punctuator's firing depends on the whole partition's stream time)");
        }
    }

    /** Processes one record as if read from {@code topic}-{@code partition} at {@code offset}; returns the outputs. */
    @SuppressWarnings("unchecked")
    List<Output> process(String topic, int partition, long offset, Record<KIn, VIn> record) {
        if (processor == null) {
            throw new IllegalStateException("restart(supplier) must be called before the first record");
        }
        context.setRecordMetadata(topic, partition, offset);
        processor.process(record);
        List<Output> out = new ArrayList<>(context.forwarded().size());
        for (var forward : context.forwarded()) {
            out.add(new Output(forward.childName().orElse(""), forward.record()));
        }
        context.resetForwards();
        return out;
    }

    private static Properties properties() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "quanta-audit-replay");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "replay:9092");
        // no global thread here; set to the future default so Kafka does not warn about it on every config
        props.put("processing.exception.handler.global.enabled", "true");
        return props;
    }

    @Override
    public void close() {
        if (processor != null) {
            processor.close();
        }
        stores.forEach(StateStore::close);
    }
}
