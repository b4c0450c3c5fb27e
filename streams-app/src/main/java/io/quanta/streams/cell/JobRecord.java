package io.quanta.streams.cell;

import io.quanta.core.model.JobState;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * What a cell scheduler remembers about one job: the submission, the life-cycle state and the service accounting that
 * the snapshot's time-dependent fields are computed from. An immutable value: a change is a new value made by
 * {@link #with} and given to {@link CellState#changeJob}, which marks it for the jobs store when it differs (the
 * store holds its serialized form, {@link StateCodecs}, and is the truth after a restart). Times are stream-time epoch
 * milliseconds, {@code -1} when unset.
 *
 * @param gpuType           the GPU model the job requires, or null for any
 * @param attainedBase      GPU-seconds attained before the current run
 * @param queuedSinceMs     since when the job waits in the queue, -1 unless QUEUED
 * @param throughput        the measured minibatches per second of the current attempt, NaN when unknown
 * @param reason            why the job is in its state (the last transition's reason)
 * @param finishedAtMs      when the job reached its terminal state, -1 while active
 * @param endedAttempt      the last attempt that ended, whose gang members' end events are still expected
 * @param pendingPeerEnds   the members (nodes) of {@code endedAttempt} that have not reported its end
 * @param drainPeers        a gang attempt that failed or was lost on one member, whose other members were told to
 *                          KILL: the job may not start again until each of them reported its end, stopped listing the
 *                          attempt in its heartbeats, or was lost (its connector fenced itself by then), so two copies
 *                          of the job never run
 */
public record JobRecord(String jobId, String cellId, String tenant, int numGpus, String gpuType, int priority,
                        int maxRetries, String modelName, double tensorSizeSkew, long gpuMemoryMiB,
                        Double minibatchMillis, Long expectedDurationSeconds, List<String> command,
                        Map<String, String> env, JobState state, int attempt, int failures, long arrivalSeq,
                        long arrivedAtMs, long submittedAtMs, double attainedBase, long runStartedAtMs,
                        double lastRunSeconds, long queuedSinceMs, int queueLevel, List<String> sharingWith,
                        double throughput, double baselineThroughput, long placementChangedAtMs,
                        List<String> previousPlacement, String checkpointRef, boolean cancelRequested,
                        String lastMessage, String reason, long firstStartedAtMs, long lastStartedAtMs,
                        long finishedAtMs, int preemptions, int migrations, int endedAttempt,
                        List<String> pendingPeerEnds, boolean drainPeers, String sourceTopic, int sourcePartition,
                        long sourceOffset) {

    /** Lists as immutable copies, the environment as an immutable copy sorted by name (the order it is stored in). */
    public JobRecord {
        command = List.copyOf(command);
        env = Collections.unmodifiableSortedMap(new TreeMap<>(env));
        sharingWith = List.copyOf(sharingWith);
        previousPlacement = List.copyOf(previousPlacement);
        pendingPeerEnds = List.copyOf(pendingPeerEnds);
    }

    /** This job with the changes {@code change} makes to a draft of it. */
    JobRecord with(Consumer<Draft> change) {
        Draft draft = new Draft(this);
        change.accept(draft);
        return draft.build();
    }

    /** Attained service in GPU-seconds as of {@code nowMs}. */
    public double attainedAt(long nowMs) {
        return runStartedAtMs < 0 ? attainedBase : attainedBase + numGpus * Math.max(0, nowMs - runStartedAtMs) / 1000.0;
    }

    /**
     * A changeable copy of the fields: inside {@link #with}, one change names only the fields it sets
     * ({@code job.with(j -> j.failures++)}) instead of a copy method per field of this record; a new draft holds the
     * values of a job never stored (QUEUED, -1, NaN, empty) until {@link #build}. Lists and maps may be set to any
     * list or map: the record copies them.
     */
    static final class Draft {
        String jobId;
        String cellId;
        String tenant;
        int numGpus;
        String gpuType;
        int priority;
        int maxRetries;
        String modelName;
        double tensorSizeSkew;
        long gpuMemoryMiB;
        Double minibatchMillis;
        Long expectedDurationSeconds;
        List<String> command = List.of();
        Map<String, String> env = Map.of();
        JobState state = JobState.QUEUED;
        int attempt;
        int failures;
        long arrivalSeq;
        long arrivedAtMs = -1;
        long submittedAtMs = -1;
        double attainedBase;
        long runStartedAtMs = -1;
        double lastRunSeconds;
        long queuedSinceMs = -1;
        int queueLevel;
        List<String> sharingWith = List.of();
        double throughput = Double.NaN;
        double baselineThroughput = Double.NaN;
        long placementChangedAtMs = -1;
        List<String> previousPlacement = List.of();
        String checkpointRef;
        boolean cancelRequested;
        String lastMessage;
        String reason = "";
        long firstStartedAtMs = -1;
        long lastStartedAtMs = -1;
        long finishedAtMs = -1;
        int preemptions;
        int migrations;
        int endedAttempt;
        List<String> pendingPeerEnds = List.of();
        boolean drainPeers;
        String sourceTopic = "";
        int sourcePartition = -1;
        long sourceOffset = -1;

        Draft() {
        }

        private Draft(JobRecord j) {
            jobId = j.jobId;
            cellId = j.cellId;
            tenant = j.tenant;
            numGpus = j.numGpus;
            gpuType = j.gpuType;
            priority = j.priority;
            maxRetries = j.maxRetries;
            modelName = j.modelName;
            tensorSizeSkew = j.tensorSizeSkew;
            gpuMemoryMiB = j.gpuMemoryMiB;
            minibatchMillis = j.minibatchMillis;
            expectedDurationSeconds = j.expectedDurationSeconds;
            command = j.command;
            env = j.env;
            state = j.state;
            attempt = j.attempt;
            failures = j.failures;
            arrivalSeq = j.arrivalSeq;
            arrivedAtMs = j.arrivedAtMs;
            submittedAtMs = j.submittedAtMs;
            attainedBase = j.attainedBase;
            runStartedAtMs = j.runStartedAtMs;
            lastRunSeconds = j.lastRunSeconds;
            queuedSinceMs = j.queuedSinceMs;
            queueLevel = j.queueLevel;
            sharingWith = j.sharingWith;
            throughput = j.throughput;
            baselineThroughput = j.baselineThroughput;
            placementChangedAtMs = j.placementChangedAtMs;
            previousPlacement = j.previousPlacement;
            checkpointRef = j.checkpointRef;
            cancelRequested = j.cancelRequested;
            lastMessage = j.lastMessage;
            reason = j.reason;
            firstStartedAtMs = j.firstStartedAtMs;
            lastStartedAtMs = j.lastStartedAtMs;
            finishedAtMs = j.finishedAtMs;
            preemptions = j.preemptions;
            migrations = j.migrations;
            endedAttempt = j.endedAttempt;
            pendingPeerEnds = j.pendingPeerEnds;
            drainPeers = j.drainPeers;
            sourceTopic = j.sourceTopic;
            sourcePartition = j.sourcePartition;
            sourceOffset = j.sourceOffset;
        }

        JobRecord build() {
            return new JobRecord(jobId, cellId, tenant, numGpus, gpuType, priority, maxRetries, modelName,
                    tensorSizeSkew, gpuMemoryMiB, minibatchMillis, expectedDurationSeconds, command, env, state,
                    attempt, failures, arrivalSeq, arrivedAtMs, submittedAtMs, attainedBase, runStartedAtMs,
                    lastRunSeconds, queuedSinceMs, queueLevel, sharingWith, throughput, baselineThroughput,
                    placementChangedAtMs, previousPlacement, checkpointRef, cancelRequested, lastMessage, reason,
                    firstStartedAtMs, lastStartedAtMs, finishedAtMs, preemptions, migrations, endedAttempt,
                    pendingPeerEnds, drainPeers, sourceTopic, sourcePartition, sourceOffset);
        }
    }
}
