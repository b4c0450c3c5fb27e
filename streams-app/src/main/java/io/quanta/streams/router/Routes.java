package io.quanta.streams.router;

import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobRequest;
import io.quanta.schemas.JobTelemetry;
import io.quanta.schemas.NodeHeartbeat;

/** The routing rules of the four input topics, for the wiring class. */
public final class Routes {

    private Routes() {
    }

    /** Submissions and cancellations, routed by the configured rule; job routes kept in {@code store}. */
    public static InputRoute<JobRequest> submissions(String store, CellRouting routing) {
        return new SubmissionRoute(store, routing, java.util.Optional.empty());
    }

    /** Submissions and cancellations whose tenant is the one whose topic they came on (when given). */
    public static InputRoute<JobRequest> submissions(String store, CellRouting routing,
                                                     java.util.Optional<TenantTopics> tenants) {
        return new SubmissionRoute(store, routing, tenants);
    }

    /** Telemetry, to the cell of its job. */
    public static InputRoute<JobTelemetry> telemetry(String store) {
        return new JobScopedRoute<>(store, "telemetry", JobTelemetry::getJobId, JobTelemetry::getNodeId,
                JobTelemetry::getCellId);
    }

    /** Job events, to the cell of their job. */
    public static InputRoute<JobEvent> events(String store) {
        return new JobScopedRoute<>(store, "event", JobEvent::getJobId, JobEvent::getNodeId,
                JobEvent::getCellId);
    }

    /** Heartbeats, to the cell each node declares; node cells kept in {@code store}. */
    public static InputRoute<NodeHeartbeat> heartbeats(String store) {
        return new HeartbeatRoute(store);
    }
}
