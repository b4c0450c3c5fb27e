package io.quanta.streams.testing;

import io.quanta.core.policy.PolicyRegistry;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.streams.SchedulerSettings;
import io.quanta.streams.SchedulerTopology;
import io.quanta.streams.StoreOptions;
import io.quanta.topics.TopicCatalogue;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.test.TestRecord;

/**
 * The cell scheduler processor alone over in-memory stores, fed with inbox records by hand: replays an inbox, and can
 * be "restarted" (a new processor instance initialised from the same stores) at any point.
 */
public final class CellReplay {

    private final TopicCatalogue topics;
    private final MockProcessorContext<String, Object> context;
    private final List<SchedulingDecision> decisions = new ArrayList<>();
    private Processor<String, byte[], String, Object> processor;

    public CellReplay(TopicCatalogue topics) {
        this.topics = topics;
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "replay");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        this.context = new MockProcessorContext<>(props);
        for (StoreBuilder<?> builder : SchedulerTopology.cellStores(StoreOptions.inMemoryWithoutChangelogs())) {
            StateStore store = builder.build();
            store.init(context.getStateStoreContext(), store);
            context.addStateStore(store);
        }
    }

    /** (Re)starts the processor with these settings on the current stores. */
    public CellReplay start(SchedulerSettings settings) {
        if (processor != null) {
            processor.close();
        }
        processor = SchedulerTopology.cellScheduler(topics, settings, PolicyRegistry.builtIn()).get();
        processor.init(context);
        return this;
    }

    /** Feeds inbox records {@code from} (inclusive) to {@code to} (exclusive), with their offsets. */
    public CellReplay feed(List<TestRecord<String, byte[]>> inbox, int from, int to) {
        for (int offset = from; offset < to; offset++) {
            TestRecord<String, byte[]> r = inbox.get(offset);
            context.setRecordMetadata(topics.inbox().name(), 0, offset);
            processor.process(new Record<>(r.key(), r.value(), r.timestamp()));
            collect();
        }
        return this;
    }

    /** The decisions forwarded so far. */
    public List<SchedulingDecision> decisions() {
        return decisions;
    }

    private void collect() {
        for (var forward : context.forwarded()) {
            if (SchedulerTopology.DECISIONS_SINK.equals(forward.childName().orElse(""))) {
                decisions.add((SchedulingDecision) forward.record().value());
            }
        }
        context.resetForwards();
    }
}
