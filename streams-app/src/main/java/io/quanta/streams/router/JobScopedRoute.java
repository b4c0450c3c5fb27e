package io.quanta.streams.router;

import io.quanta.schemas.CellInput;
import io.quanta.schemas.SourceRef;
import java.time.Instant;
import java.util.function.Function;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.avro.specific.SpecificRecord;

/**
 * Routes records about a job (telemetry, job events) to the cell of that job; records about a job the router never
 * accepted go to the dead letters.
 *
 * @param <V> the record type
 */
final class JobScopedRoute<V extends SpecificRecord> implements InputRoute<V> {

    private final String storeName;
    private final String kind;
    private final Function<V, String> jobIdOf;
    private final Function<V, String> nodeIdOf;
    private JobRouteStore routes;

    JobScopedRoute(String storeName, String kind, Function<V, String> jobIdOf, Function<V, String> nodeIdOf) {
        this.storeName = storeName;
        this.kind = kind;
        this.jobIdOf = jobIdOf;
        this.nodeIdOf = nodeIdOf;
    }

    @Override
    public void init(Function<String, StateStore> stores) {
        routes = JobRouteStore.from(stores, storeName);
    }

    @Override
    public RouteOutcome route(String key, V value, SourceRef source, Instant at) {
        String jobId = jobIdOf.apply(value);
        if (nodeIdOf.apply(value).isBlank()) {
            return RouteOutcome.deadLetter(kind + " of job " + jobId + " names no node");
        }
        JobRoute route = routes.get(jobId);
        if (route == null) {
            return RouteOutcome.deadLetter(kind + " for unknown job " + jobId);
        }
        return RouteOutcome.to(CellInput.newBuilder().setCellId(route.cellId()).setInput(value).setSource(source)
                .build());
    }
}
