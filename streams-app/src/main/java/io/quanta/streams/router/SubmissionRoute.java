package io.quanta.streams.router;

import io.quanta.schemas.CellInput;
import io.quanta.schemas.JobCancelRequested;
import io.quanta.schemas.JobRequest;
import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.JobSubmitted;
import io.quanta.schemas.SourceRef;
import io.quanta.topics.JobIds;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.apache.kafka.streams.processor.StateStore;

/**
 * Routes {@code quanta.jobs.submissions}. A submission whose record key is not its job id (or that has no key) is
 * refused with a dead letter only, before anything else: only the partition of its job id knows whether the id is
 * live. A valid submission goes to the cell its routing rule names and is
 * remembered (job to cell, content fingerprint); an invalid one gets a REJECTED status and a dead letter; the same
 * job submitted again is ignored and recorded as a dead letter ("duplicate submission ignored"); a different job
 * under a known id is refused with a dead letter only (a REJECTED status would overwrite the status of the job that
 * owns the id). A cancellation goes to the job's cell, or to the dead letters when the job is unknown.
 */
final class SubmissionRoute implements InputRoute<JobRequest> {

    /** Dead-letter reason of an identical re-submission. */
    static final String DUPLICATE_IGNORED = "duplicate submission ignored: the same job was already accepted";

    private final String storeName;
    private final CellRouting routing;
    private final Optional<TenantTopics> tenantTopics;
    private JobRouteStore routes;

    SubmissionRoute(String storeName, CellRouting routing, Optional<TenantTopics> tenantTopics) {
        this.storeName = storeName;
        this.routing = routing;
        this.tenantTopics = tenantTopics;
    }

    @Override
    public void init(Function<String, StateStore> stores) {
        routes = JobRouteStore.from(stores, storeName);
    }

    /** Submissions carry the job's command line and environment. */
    @Override
    public boolean carriesJobSecrets() {
        return true;
    }

    @Override
    public RouteOutcome route(String key, JobRequest value, SourceRef source, Instant at) {
        if (tenantTopics.isPresent()) {
            return authenticated(key, value, source, at, tenantTopics.get());
        }
        return switch (value.getRequest()) {
            case JobSubmitted job -> submitted(key, job, source, at);
            case JobCancelRequested cancel -> cancelled(cancel, source);
            default -> RouteOutcome.deadLetter("unknown request type " + value.getRequest().getClass().getName());
        };
    }

    /** With tenant topics on: the tenant is the one whose topic the record came on (see {@link TenantTopics}). */
    private RouteOutcome authenticated(String key, JobRequest value, SourceRef source, Instant at,
                                       TenantTopics topics) {
        Optional<String> tenant = topics.tenantOf(source.getTopic());
        if (tenant.isEmpty()) {
            return RouteOutcome.deadLetter("refused: tenants are authenticated by topic (scheduler.tenant.topics): "
                    + "submit and cancel on " + topics.sharedTopic() + ".<tenant>, not on " + source.getTopic());
        }
        return switch (value.getRequest()) {
            case JobSubmitted job -> {
                String claimed = job.getTenant();
                if (claimed != null && !claimed.isBlank() && !claimed.equals(tenant.get())) {
                    yield submitted(key, JobSubmitted.newBuilder(job).setTenant(tenant.get()).build(), source, at,
                            "tenant '" + claimed + "' in the submission is not the authenticated tenant '"
                                    + tenant.get() + "' (topic " + source.getTopic() + ")");
                }
                yield submitted(key, JobSubmitted.newBuilder(job).setTenant(tenant.get()).build(), source, at);
            }
            case JobCancelRequested cancel -> cancelled(JobCancelRequested.newBuilder(cancel)
                    .setRequestedBy(tenant.get()).build(), source);
            default -> RouteOutcome.deadLetter("unknown request type " + value.getRequest().getClass().getName());
        };
    }

    private RouteOutcome submitted(String key, JobSubmitted job, SourceRef source, Instant at) {
        return submitted(key, job, source, at, null);
    }

    private RouteOutcome submitted(String key, JobSubmitted job, SourceRef source, Instant at, String forged) {
        if (!job.getJobId().isBlank() && !job.getJobId().equals(key)) {
            return RouteOutcome.deadLetter(notKeyedByJobId(key, job.getJobId()));
        }
        // the id rule applies where jobs enter, not to inbox records the cells check again: a replay of an older
        // log must accept what was accepted then
        Optional<String> problem = forged != null ? Optional.of(forged)
                : SubmissionChecks.problem(job).or(() -> JobIds.problem(job.getJobId()));
        JobRoute known = job.getJobId().isBlank() ? null : routes.get(job.getJobId());
        if (problem.isPresent()) {
            String reason = "submission rejected: " + problem.get();
            if (known != null) {
                // the status topic is compacted by job id: a REJECTED status would replace the live job's status
                return RouteOutcome.deadLetter(reason + "; job id " + job.getJobId() + " is already used by a "
                        + "different job (cell " + known.cellId() + "), whose status is left alone");
            }
            return job.getJobId().isBlank() ? RouteOutcome.deadLetter(reason)
                    : RouteOutcome.rejected(rejected(job, reason, at), reason);
        }
        String fingerprint = SubmissionFingerprint.of(job);
        if (known != null) {
            return RouteOutcome.deadLetter(known.fingerprint().equals(fingerprint) ? DUPLICATE_IGNORED
                    : "submission refused: job id " + job.getJobId() + " is already used by a different job (cell "
                    + known.cellId() + ")");
        }
        String cell = routing.cellFor(job);
        routes.put(job.getJobId(), new JobRoute(cell, fingerprint));
        return RouteOutcome.to(CellInput.newBuilder().setCellId(cell).setInput(job).setSource(source).build());
    }

    /**
     * Why a submission whose record key is not its job id is refused: the routes of a job id are kept by the
     * partition of that id alone, so on any other partition a live job's id looks free, and a REJECTED status (or
     * a second acceptance) would replace the live job's status in the compacted status topic.
     */
    private static String notKeyedByJobId(String key, String jobId) {
        return "submission refused: " + (key == null ? "no record key; the key must be its job id '" + jobId + "'"
                : "record key '" + key + "' is not its job id '" + jobId + "'") + " (only the partition of the job "
                + "id knows whether the id is in use, so no status is published for it)";
    }

    /**
     * A cancellation goes to its job's cell. When this partition never routed the job, its submission may have come
     * from a producer that partitions differently (librdkafka's CRC32 partitioner, a random one): the cancel goes to
     * every cell the routing rule can name, and the cell that has the job cancels it (the others record that they do
     * not know it). With one cell, the default, that is exactly one inbox record.
     */
    private RouteOutcome cancelled(JobCancelRequested cancel, SourceRef source) {
        if (cancel.getJobId().isBlank()) {
            return RouteOutcome.deadLetter("cancel names no job id");
        }
        JobRoute known = routes.get(cancel.getJobId());
        List<String> cells = known != null ? List.of(known.cellId()) : List.copyOf(routing.cells());
        return RouteOutcome.to(cells.stream().map(cell -> CellInput.newBuilder().setCellId(cell).setInput(cancel)
                .setSource(source).build()).toArray(CellInput[]::new));
    }

    private static JobStatus rejected(JobSubmitted job, String reason, Instant at) {
        return JobStatus.newBuilder()
                .setJobId(job.getJobId())
                .setTenant(job.getTenant())
                .setState(JobState.REJECTED)
                .setNumGpus(job.getNumGpus())
                .setSubmittedAt(job.getSubmittedAt())
                .setFinishedAt(at)
                .setReason(reason)
                .setUpdatedAt(at)
                .build();
    }
}
