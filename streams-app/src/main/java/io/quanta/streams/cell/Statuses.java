package io.quanta.streams.cell;

import io.quanta.core.model.GpuId;
import io.quanta.schemas.GpuRef;
import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import java.time.Instant;
import java.util.List;

/** Builds the user-facing {@link JobStatus} of a job from the cell's records. */
public final class Statuses {

    private Statuses() {
    }

    /**
     * The status of {@code job} as of stream time {@code nowMs}.
     *
     * @param assignment the job's current assignment, or null when it holds no GPUs
     */
    public static JobStatus of(JobRecord job, AssignmentRecord assignment, long nowMs) {
        List<GpuRef> placement = assignment == null ? List.of()
                : assignment.placement().stream().map(Statuses::ref).toList();
        return JobStatus.newBuilder()
                .setJobId(job.jobId())
                .setTenant(job.tenant())
                .setCellId(job.cellId())
                .setState(JobState.valueOf(job.state().name()))
                .setAttempt(job.attempt())
                .setNumGpus(job.numGpus())
                .setQueueLevel(job.queueLevel())
                .setAttainedGpuSeconds(job.attainedAt(nowMs))
                .setPlacement(placement)
                .setSubmittedAt(instant(job.submittedAtMs()))
                .setQueuedSince(instant(job.queuedSinceMs()))
                .setFirstStartedAt(instant(job.firstStartedAtMs()))
                .setLastStartedAt(instant(job.lastStartedAtMs()))
                .setFinishedAt(instant(job.finishedAtMs()))
                .setPreemptions(job.preemptions())
                .setMigrations(job.migrations())
                .setReason(job.reason() == null ? "" : job.reason())
                .setUpdatedAt(Instant.ofEpochMilli(nowMs))
                .build();
    }

    static GpuRef ref(GpuId gpu) {
        return new GpuRef(gpu.nodeId(), gpu.index());
    }

    private static Instant instant(long ms) {
        return ms < 0 ? null : Instant.ofEpochMilli(ms);
    }
}
