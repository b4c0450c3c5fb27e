package io.quanta.streams.host;

import io.quanta.streams.StoreSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Hosts one processor the way a Kafka Streams task does, on {@link HostStore}s, and feeds it records with the
 * metadata (topic, partition, offset) of the original log, so offsets the processor records come out exactly as they
 * did live. {@link #restart} closes the processor and creates a new one over the same stores, whose {@code init}
 * reloads from them: what a task does after a restart on restored stores. Audit replay runs the production cell
 * scheduler with it; unlike a {@code TopologyTestDriver} it keeps the log's offsets and its stores across restarts,
 * and it is production code (no test library ships).
 *
 * @param <KIn> the processor's input key type
 * @param <VIn> the processor's input value type
 */
public final class ProcessorHost<KIn, VIn> implements AutoCloseable {

    /** One output: the child (sink) it was forwarded to, empty for all children, and the record. */
    public record Output(String child, Record<?, ?> record) {
    }

    private final Map<String, HostStore<?>> stores = new LinkedHashMap<>();
    private final List<Output> forwarded = new ArrayList<>();
    private final HostContext context;
    private Processor<KIn, VIn, ?, ?> processor;
    private long recordTimeMs;

    /** A host with these stores; the wall clock it shows the processor is the time of the record being processed. */
    public ProcessorHost(String applicationId, List<StoreSpec<?>> storeSpecs) {
        storeSpecs.forEach(spec -> stores.put(spec.name(), new HostStore<>(spec)));
        this.context = new HostContext(applicationId, stores, new HostMetrics(), () -> this.recordTimeMs,
                (child, record) -> forwarded.add(new Output(child == null ? "" : child, record)));
    }

    /** Closes the current processor, if any, and starts a new one from {@code supplier} on the same stores. */
    @SuppressWarnings("unchecked")
    public void restart(ProcessorSupplier<KIn, VIn, ?, ?> supplier) {
        if (processor != null) {
            processor.close();
        }
        processor = supplier.get();
        ((Processor<KIn, VIn, Object, Object>) processor).init(context);
    }

    /** Processes one record as if read from {@code topic}-{@code partition} at {@code offset}; returns the outputs. */
    public List<Output> process(String topic, int partition, long offset, Record<KIn, VIn> record) {
        if (processor == null) {
            throw new IllegalStateException("restart(supplier) must be called before the first record");
        }
        recordTimeMs = record.timestamp();
        context.current(new HostContext.Metadata(topic, partition, offset), record.timestamp());
        processor.process(record);
        List<Output> out = List.copyOf(forwarded);
        forwarded.clear();
        return out;
    }

    @Override
    public void close() {
        if (processor != null) {
            processor.close();
        }
        stores.values().forEach(HostStore::close);
    }
}
