package io.quanta.streams.router;

import java.util.function.Function;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/** Typed facade over the router's job-to-cell store (key: job id). */
public final class JobRouteStore {

    private final ReadOnlyKeyValueStore<String, JobRoute> reads;
    private final KeyValueStore<String, JobRoute> writes;

    private JobRouteStore(ReadOnlyKeyValueStore<String, JobRoute> reads, KeyValueStore<String, JobRoute> writes) {
        this.reads = reads;
        this.writes = writes;
    }

    public static JobRouteStore of(KeyValueStore<String, JobRoute> store) {
        return new JobRouteStore(store, store);
    }

    /** The read-write facade of the store named {@code name}, looked up in a processor's stores. */
    @SuppressWarnings("unchecked")
    static JobRouteStore from(Function<String, StateStore> stores, String name) {
        return of((KeyValueStore<String, JobRoute>) stores.apply(name));
    }

    /** A read-only view (interactive queries). */
    public static JobRouteStore readOnly(ReadOnlyKeyValueStore<String, JobRoute> store) {
        return new JobRouteStore(store, null);
    }

    /** The route of a job, or null when the job was never accepted. */
    public JobRoute get(String jobId) {
        return reads.get(jobId);
    }

    void put(String jobId, JobRoute route) {
        writes.put(jobId, route);
    }
}
