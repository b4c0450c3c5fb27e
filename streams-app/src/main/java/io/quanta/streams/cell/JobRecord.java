package io.quanta.streams.cell;

import io.quanta.core.model.Job;
import io.quanta.core.model.JobState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a cell scheduler remembers about one job: the submission, the life-cycle state and the service accounting that
 * the snapshot's time-dependent fields are computed from. A mutable working copy owned by one cell; the jobs store
 * holds its serialized form (written at the end of every processed record), which is the truth after a restart.
 * Times are stream-time epoch milliseconds, {@code -1} when unset.
 */
public final class JobRecord {

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
    List<String> command = new ArrayList<>();
    Map<String, String> env = new TreeMap<>();

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
    List<String> sharingWith = new ArrayList<>();
    double throughput = Double.NaN;
    double baselineThroughput = Double.NaN;
    long placementChangedAtMs = -1;
    List<String> previousPlacement = new ArrayList<>();
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
    List<String> pendingPeerEnds = new ArrayList<>();
    /**
     * A gang attempt that failed or was lost on one member, whose other members were told to KILL: the job may not
     * start again until each of them reported its end, stopped listing the attempt in its heartbeats, or was lost
     * (its connector fenced itself by then), so two copies of the job never run.
     */
    boolean drainPeers;
    String sourceTopic = "";
    int sourcePartition = -1;
    long sourceOffset = -1;

    /** The snapshot view last built for this record (not stored): valid until the record or its assignment changes. */
    transient Job view;
    transient long viewAtMs;
    transient boolean viewTimeDependent;

    JobRecord() {
    }

    public String jobId() {
        return jobId;
    }

    public String cellId() {
        return cellId;
    }

    public String tenant() {
        return tenant;
    }

    public JobState state() {
        return state;
    }

    public int numGpus() {
        return numGpus;
    }

    public int queueLevel() {
        return queueLevel;
    }

    public long arrivalSeq() {
        return arrivalSeq;
    }

    /** The GPU model the job requires, or null for any. */
    public String gpuType() {
        return gpuType;
    }

    /** Why the job is in its state (the last transition's reason). */
    public String reason() {
        return reason;
    }

    /** Stream time since which the job waits in the queue, -1 unless QUEUED. */
    public long queuedSinceMs() {
        return queuedSinceMs;
    }

    /** Stream time at which the job reached its terminal state, -1 while active. */
    public long finishedAtMs() {
        return finishedAtMs;
    }

    /** Attained service in GPU-seconds as of {@code nowMs}. */
    public double attainedAt(long nowMs) {
        return runStartedAtMs < 0 ? attainedBase : attainedBase + numGpus * Math.max(0, nowMs - runStartedAtMs) / 1000.0;
    }
}
