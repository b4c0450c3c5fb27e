package io.quanta.streams.router;

import io.quanta.schemas.JobSubmitted;
import io.quanta.schemas.ModelProfile;
import java.util.Optional;

/**
 * The rules a submission must pass before it reaches a cell (schema-valid but wrong inputs): a job id, tenant, a
 * positive GPU count, a non-negative retry limit and duration, a sane model profile. Pure; the first problem wins.
 * The router checks every submission (and its record key first, {@link SubmissionRoute}); the cells check again what
 * reaches the inbox by another way.
 */
public final class SubmissionChecks {

    private SubmissionChecks() {
    }

    /** Why the submission is invalid, or empty. */
    public static Optional<String> problem(JobSubmitted job) {
        if (job.getJobId().isBlank()) {
            return Optional.of("job id is blank");
        }
        if (job.getTenant().isBlank()) {
            return Optional.of("tenant is blank");
        }
        if (job.getNumGpus() <= 0) {
            return Optional.of("numGpus must be at least 1, got " + job.getNumGpus());
        }
        if (job.getGpuType() != null && job.getGpuType().isBlank()) {
            return Optional.of("gpuType is blank; leave it null for any GPU");
        }
        if (job.getMaxRetries() < 0) {
            return Optional.of("maxRetries must be >= 0, got " + job.getMaxRetries());
        }
        if (job.getExpectedDurationSeconds() != null && job.getExpectedDurationSeconds() < 0) {
            return Optional.of("expectedDurationSeconds must be >= 0, got " + job.getExpectedDurationSeconds());
        }
        return profileProblem(job.getProfile());
    }

    private static Optional<String> profileProblem(ModelProfile profile) {
        double skew = profile.getTensorSizeSkew();
        if (!(skew >= 0) || Double.isInfinite(skew)) {
            return Optional.of("profile.tensorSizeSkew must be a number >= 0, got " + skew);
        }
        if (profile.getGpuMemoryMiB() < 0) {
            return Optional.of("profile.gpuMemoryMiB must be >= 0, got " + profile.getGpuMemoryMiB());
        }
        Double minibatch = profile.getMinibatchMillis();
        if (minibatch != null && (!(minibatch > 0) || minibatch.isInfinite())) {
            return Optional.of("profile.minibatchMillis must be > 0 when given, got " + minibatch);
        }
        if (profile.getModelName().isBlank()) {
            return Optional.of("profile.modelName is blank");
        }
        return Optional.empty();
    }
}
