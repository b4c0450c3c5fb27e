package io.quanta.core.model;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A training job as seen by one scheduling pass. All durations and the attained service are given as of the
 * snapshot's {@code now}: the processor accrues them from job events and stream time, policies only read them.
 *
 * @param id                    unique job id (ties are broken by it)
 * @param tenant                owner used for quotas
 * @param numGpus               GPUs the job needs at once (gang)
 * @param gpuType               GPU model the job requires, empty = any
 * @param state                 life-cycle state
 * @param attempt               current attempt number (starts at 1)
 * @param preemptions           times the job was suspended for another reason than a migration (preempted, time slice
 *                              ended, pack reverted without free GPUs)
 * @param arrivalSeq            arrival sequence number in the cell: FIFO order and the last tie-break
 * @param submittedAt           stream time of submission
 * @param attainedGpuSeconds    2D attained service: sum over running periods of numGpus x seconds, as of now
 * @param executedSeconds       seconds executed in the current run (RUNNING/SUSPENDING) or the last run (QUEUED)
 * @param waitingSeconds        seconds waited since the job was last queued (submission or suspension), 0 unless QUEUED
 * @param queueLevel            current queue of the multi-level queue (0 = highest priority), as persisted from
 *                              {@code ChangeQueue} decisions
 * @param placement             GPUs the job occupies (STARTING, RUNNING, SUSPENDING), sorted; empty when QUEUED
 * @param sharingWith           ids of the jobs it shares GPUs with (packing), sorted
 * @param throughput            measured minibatches/s on the current placement, NaN when unknown
 * @param baselineThroughput    minibatches/s measured just before the last pack or migration affecting the job, NaN when
 *                              unknown or when no introspection is pending
 * @param placementChangedAt    stream time of the last pack or migration affecting this job whose introspection is still
 *                              pending; empty otherwise (cleared by {@code ConfirmPlacement} or when the job stops)
 * @param previousPlacement     placement before the last migration while its introspection is pending, else empty
 * @param reservedGpus          GPUs reserved for this job's restart after a migration (while SUSPENDING), else empty
 * @param profile               model profile
 * @param expectedDurationSeconds service time at full speed when the submission declares it (the simulator declares the
 *                              true one); read only by {@code srtf-oracle} and by quanta with
 *                              {@code quanta.index=declared}
 */
public record Job(
        String id,
        String tenant,
        int numGpus,
        Optional<String> gpuType,
        JobState state,
        int attempt,
        int preemptions,
        long arrivalSeq,
        Instant submittedAt,
        double attainedGpuSeconds,
        double executedSeconds,
        double waitingSeconds,
        int queueLevel,
        List<GpuId> placement,
        List<String> sharingWith,
        double throughput,
        double baselineThroughput,
        Optional<Instant> placementChangedAt,
        List<GpuId> previousPlacement,
        List<GpuId> reservedGpus,
        ModelProfile profile,
        OptionalDouble expectedDurationSeconds) {

    public Job {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(gpuType, "gpuType");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(submittedAt, "submittedAt");
        Objects.requireNonNull(placementChangedAt, "placementChangedAt");
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(expectedDurationSeconds, "expectedDurationSeconds");
        if (preemptions < 0) {
            throw new IllegalArgumentException("job " + id + ": preemptions must be >= 0, got " + preemptions);
        }
        if (queueLevel < 0) {
            throw new IllegalArgumentException("job " + id + ": queueLevel must be >= 0, got " + queueLevel);
        }
        placement = SortedLists.of(placement);
        sharingWith = SortedLists.of(sharingWith);
        previousPlacement = SortedLists.of(previousPlacement);
        reservedGpus = SortedLists.of(reservedGpus);
    }

    /** A new builder with neutral defaults: QUEUED, 1 GPU, attempt 1, tenant "default", unknown profile. */
    public static Builder builder(String id) {
        return new Builder(id);
    }

    /** A builder pre-filled with this job's values. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * The same job at another instant: only the time-dependent fields (attained service, executed and waiting
     * seconds) differ. Cheap, for snapshot builders that keep one view per job and move it forward in time.
     */
    public Job at(double attained, double executed, double waiting) {
        return new Job(id, tenant, numGpus, gpuType, state, attempt, preemptions, arrivalSeq, submittedAt, attained,
                executed, waiting, queueLevel, placement, sharingWith, throughput, baselineThroughput,
                placementChangedAt, previousPlacement, reservedGpus, profile, expectedDurationSeconds);
    }

    /** True when the job is QUEUED (waiting for GPUs). */
    public boolean isQueued() {
        return state == JobState.QUEUED;
    }

    /** True when the job is RUNNING. */
    public boolean isRunning() {
        return state == JobState.RUNNING;
    }

    /** True when the job currently shares at least one GPU with another job. */
    public boolean isPacked() {
        return !sharingWith.isEmpty();
    }

    /** Fluent builder for {@link Job}; the processor and tests use it to assemble snapshots. */
    public static final class Builder {
        private final String id;
        private String tenant = "default";
        private int numGpus = 1;
        private Optional<String> gpuType = Optional.empty();
        private JobState state = JobState.QUEUED;
        private int attempt = 1;
        private int preemptions;
        private long arrivalSeq;
        private Instant submittedAt = Instant.EPOCH;
        private double attainedGpuSeconds;
        private double executedSeconds;
        private double waitingSeconds;
        private int queueLevel;
        private List<GpuId> placement = List.of();
        private List<String> sharingWith = List.of();
        private double throughput = Double.NaN;
        private double baselineThroughput = Double.NaN;
        private Optional<Instant> placementChangedAt = Optional.empty();
        private List<GpuId> previousPlacement = List.of();
        private List<GpuId> reservedGpus = List.of();
        private ModelProfile profile = ModelProfile.UNKNOWN;
        private OptionalDouble expectedDurationSeconds = OptionalDouble.empty();

        private Builder(String id) {
            this.id = id;
        }

        private Builder(Job j) {
            this.id = j.id;
            this.tenant = j.tenant;
            this.numGpus = j.numGpus;
            this.gpuType = j.gpuType;
            this.state = j.state;
            this.attempt = j.attempt;
            this.preemptions = j.preemptions;
            this.arrivalSeq = j.arrivalSeq;
            this.submittedAt = j.submittedAt;
            this.attainedGpuSeconds = j.attainedGpuSeconds;
            this.executedSeconds = j.executedSeconds;
            this.waitingSeconds = j.waitingSeconds;
            this.queueLevel = j.queueLevel;
            this.placement = j.placement;
            this.sharingWith = j.sharingWith;
            this.throughput = j.throughput;
            this.baselineThroughput = j.baselineThroughput;
            this.placementChangedAt = j.placementChangedAt;
            this.previousPlacement = j.previousPlacement;
            this.reservedGpus = j.reservedGpus;
            this.profile = j.profile;
            this.expectedDurationSeconds = j.expectedDurationSeconds;
        }

        public Builder tenant(String v) { this.tenant = v; return this; }
        public Builder numGpus(int v) { this.numGpus = v; return this; }
        public Builder gpuType(Optional<String> v) { this.gpuType = v; return this; }
        public Builder state(JobState v) { this.state = v; return this; }
        public Builder attempt(int v) { this.attempt = v; return this; }
        public Builder preemptions(int v) { this.preemptions = v; return this; }
        public Builder arrivalSeq(long v) { this.arrivalSeq = v; return this; }
        public Builder submittedAt(Instant v) { this.submittedAt = v; return this; }
        public Builder attainedGpuSeconds(double v) { this.attainedGpuSeconds = v; return this; }
        public Builder executedSeconds(double v) { this.executedSeconds = v; return this; }
        public Builder waitingSeconds(double v) { this.waitingSeconds = v; return this; }
        public Builder queueLevel(int v) { this.queueLevel = v; return this; }
        public Builder placement(List<GpuId> v) { this.placement = v; return this; }
        public Builder sharingWith(List<String> v) { this.sharingWith = v; return this; }
        public Builder throughput(double v) { this.throughput = v; return this; }
        public Builder baselineThroughput(double v) { this.baselineThroughput = v; return this; }
        public Builder placementChangedAt(Optional<Instant> v) { this.placementChangedAt = v; return this; }
        public Builder previousPlacement(List<GpuId> v) { this.previousPlacement = v; return this; }
        public Builder reservedGpus(List<GpuId> v) { this.reservedGpus = v; return this; }
        public Builder profile(ModelProfile v) { this.profile = v; return this; }
        public Builder expectedDurationSeconds(OptionalDouble v) { this.expectedDurationSeconds = v; return this; }

        /** Builds the immutable job; validates like the canonical constructor. */
        public Job build() {
            return new Job(id, tenant, numGpus, gpuType, state, attempt, preemptions, arrivalSeq, submittedAt,
                    attainedGpuSeconds, executedSeconds, waitingSeconds, queueLevel, placement, sharingWith, throughput,
                    baselineThroughput, placementChangedAt, previousPlacement, reservedGpus, profile,
                    expectedDurationSeconds);
        }
    }
}
