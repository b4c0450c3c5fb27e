package io.quanta.streams.router;

import io.quanta.schemas.CellInput;
import io.quanta.schemas.SourceRef;
import java.time.Instant;
import io.quanta.streams.store.CellKeys;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.StateStore;

/**
 * Routes records about a job (telemetry, job events) to the cell of that job. A record that names its node's cell goes
 * straight there: no state is read, so it does not matter which partition its producer chose (a librdkafka client
 * partitions by CRC32, Java by murmur2), and the cell checks that the node and the job are its own. A record without a
 * cell (a connector older than the field) is routed by the job's route, kept by the submission router of this
 * partition; records about a job that partition never accepted go to the dead letters.
 *
 * @param <V> the record type
 */
final class JobScopedRoute<V extends SpecificRecord> implements InputRoute<V> {

    private final String storeName;
    private final String kind;
    private final Function<V, String> jobIdOf;
    private final Function<V, String> nodeIdOf;
    private final Function<V, String> cellIdOf;
    private JobRouteStore routes;

    JobScopedRoute(String storeName, String kind, Function<V, String> jobIdOf, Function<V, String> nodeIdOf,
                   Function<V, String> cellIdOf) {
        this.storeName = storeName;
        this.kind = kind;
        this.jobIdOf = jobIdOf;
        this.nodeIdOf = nodeIdOf;
        this.cellIdOf = cellIdOf;
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
        String cell = cellIdOf.apply(value);
        if (cell != null) {
            if (!CellKeys.isValidCellId(cell)) {
                return RouteOutcome.deadLetter(kind + " of job " + jobId + " names an invalid cell id");
            }
        } else {
            JobRoute route = routes.get(jobId);
            if (route == null) {
                return RouteOutcome.deadLetter(kind + " for unknown job " + jobId);
            }
            cell = route.cellId();
        }
        return RouteOutcome.to(CellInput.newBuilder().setCellId(cell).setInput(value).setSource(source).build());
    }
}
