package io.quanta.streams.cell;

import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.GpuId;
import io.quanta.core.model.Job;
import io.quanta.core.model.JobState;
import io.quanta.core.model.ModelProfile;
import io.quanta.core.model.Node;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Predicate;

/**
 * Builds the scheduling core's {@link ClusterSnapshot} of a cell at stream time {@code now} from the in-memory
 * state: node views are cached until they change, active jobs get their service, executed and waiting times as of
 * {@code now}. Terminal jobs are not in the state, so the cost is proportional to the active jobs and nodes only.
 */
final class SnapshotBuilder {

    /** The jobs a snapshot shows: one instance, so that the cell keeps its view list between snapshots. */
    private static final Predicate<JobRecord> PLACEABLE = SnapshotBuilder::placeable;

    private SnapshotBuilder() {
    }

    static ClusterSnapshot build(CellState cell, long nowMs) {
        List<Node> nodes = cell.nodeViews();
        List<Job> jobs = cell.jobViews(nowMs, PLACEABLE);
        return new ClusterSnapshot(Instant.ofEpochMilli(nowMs), nodes, jobs, cell.serviceDistribution(),
                cell.interferenceMemory());
    }

    /** False for a queued job whose last gang attempt may still run on a member: not placeable yet. */
    static boolean placeable(JobRecord j) {
        return !(j.drainPeers() && j.state() == JobState.QUEUED);
    }

    static Job job(JobRecord j, AssignmentRecord assignment, long nowMs) {
        return Job.builder(j.jobId())
                .tenant(j.tenant())
                .numGpus(j.numGpus())
                .gpuType(Optional.ofNullable(j.gpuType()))
                .state(j.state())
                .attempt(Math.max(1, j.attempt()))
                .preemptions(Math.max(0, j.preemptions()))
                .arrivalSeq(j.arrivalSeq())
                .submittedAt(Instant.ofEpochMilli(j.arrivedAtMs()))
                .attainedGpuSeconds(j.attainedAt(nowMs))
                .executedSeconds(executedSeconds(j, nowMs))
                .waitingSeconds(waitingSeconds(j, nowMs))
                .queueLevel(j.queueLevel())
                .placement(assignment == null ? List.of() : assignment.placement())
                .sharingWith(j.sharingWith())
                .throughput(j.throughput())
                .baselineThroughput(j.baselineThroughput())
                .placementChangedAt(j.placementChangedAtMs() < 0 ? Optional.empty()
                        : Optional.of(Instant.ofEpochMilli(j.placementChangedAtMs())))
                .previousPlacement(j.previousPlacement().stream().map(GpuId::parse).toList())
                .reservedGpus(assignment == null ? List.of() : assignment.reservedGpus())
                .profile(new ModelProfile(j.modelName(), j.tensorSizeSkew(), j.gpuMemoryMiB(),
                        j.minibatchMillis() == null ? Double.NaN : j.minibatchMillis()))
                .expectedDurationSeconds(j.expectedDurationSeconds() == null ? OptionalDouble.empty()
                        : OptionalDouble.of(j.expectedDurationSeconds()))
                .build();
    }

    /** The job's view {@code view} (built at another instant) moved to {@code nowMs}. */
    static Job moved(Job view, JobRecord j, long nowMs) {
        return view.at(j.attainedAt(nowMs), executedSeconds(j, nowMs), waitingSeconds(j, nowMs));
    }

    /** True when the job's view changes with time alone (service accrues, or the wait grows). */
    static boolean timeDependent(JobRecord j) {
        return j.runStartedAtMs() >= 0 || j.state() == JobState.QUEUED;
    }

    private static double executedSeconds(JobRecord j, long nowMs) {
        boolean running = j.state() == JobState.RUNNING || j.state() == JobState.SUSPENDING;
        return running && j.runStartedAtMs() >= 0 ? Math.max(0, nowMs - j.runStartedAtMs()) / 1000.0
                : j.state() == JobState.QUEUED ? j.lastRunSeconds() : 0.0;
    }

    private static double waitingSeconds(JobRecord j, long nowMs) {
        return j.state() == JobState.QUEUED && j.queuedSinceMs() >= 0
                ? Math.max(0, nowMs - j.queuedSinceMs()) / 1000.0 : 0.0;
    }
}
