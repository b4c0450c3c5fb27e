package io.quanta.cli.local;

import io.quanta.cli.observe.ClusterView;
import io.quanta.cli.observe.RecordSink;
import io.quanta.schemas.DecisionType;
import io.quanta.schemas.GpuRef;
import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.sim.engine.SimulationRun;
import io.quanta.sim.metrics.InputCounts;
import io.quanta.sim.metrics.JobOutcome;
import io.quanta.sim.metrics.RunStats;
import io.quanta.sim.metrics.Timeline;
import io.quanta.sim.metrics.TimelineSample;
import io.quanta.sim.profile.ProfileAssigner;
import io.quanta.sim.trace.Trace;
import io.quanta.sim.trace.TraceJob;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.Function;

/**
 * The outcome of a workload played on a live cluster, in simulated time, for the same summary and HTML report as
 * {@code quanta simulate}. Per job it keeps the scheduler's latest {@code JobStatus} (times, preemptions, migrations,
 * widest placement); JCT and queueing delay are wall durations multiplied by the speed, placed after the trace's own
 * submit time. The timeline samples the {@link ClusterView} (busy GPUs, running and queued jobs) in simulated time.
 * Input counts are the workload's submissions and the events, telemetry and heartbeats seen while it played.
 * Thread-safe: fed by the observer thread, sampled and read by others.
 */
public final class WorkloadRecorder implements RecordSink {

    private static final Set<JobState> ENDED = EnumSet.of(JobState.FINISHED, JobState.FAILED, JobState.REJECTED,
            JobState.CANCELLED);

    private final Trace trace;
    private final Function<TraceJob, String> ids;
    private final ProfileAssigner profiles;
    private final double speed;
    private final int totalGpus;
    private final Map<String, TraceJob> byId = new HashMap<>();
    private final Map<String, JobStatus> latest = new HashMap<>();
    private final Map<String, Integer> widest = new HashMap<>();
    private final Map<DecisionType, Long> decisions = new EnumMap<>(DecisionType.class);
    private final Timeline timeline;
    private Instant firstSample;
    private Instant lastSample;
    private double allocatedGpuSeconds;
    private int lastBusy;
    private long samples;
    private int ended;
    private long events;
    private long telemetry;
    private long heartbeats;

    /**
     * @param ids the cluster id of each trace job
     * @param totalGpus GPUs of the cluster
     */
    public WorkloadRecorder(Trace trace, Function<TraceJob, String> ids, ProfileAssigner profiles, double speed,
                            int totalGpus) {
        this.trace = trace;
        this.ids = ids;
        this.profiles = profiles;
        this.speed = speed;
        this.totalGpus = totalGpus;
        trace.jobs().forEach(j -> byId.put(ids.apply(j), j));
        this.timeline = new Timeline(Math.max(1.0, speed), 600);
    }

    @Override
    public synchronized void status(JobStatus status) {
        if (!byId.containsKey(status.getJobId())) {
            return;
        }
        JobStatus before = latest.put(status.getJobId(), status);
        if (ENDED.contains(status.getState()) && (before == null || !ENDED.contains(before.getState()))) {
            ended++;
        }
        int servers = (int) status.getPlacement().stream().map(GpuRef::getNodeId).distinct().count();
        widest.merge(status.getJobId(), servers, Math::max);
    }

    @Override
    public synchronized void decision(SchedulingDecision decision) {
        if (decision.getJobId() == null || byId.containsKey(decision.getJobId())) {
            decisions.merge(decision.getType(), 1L, Long::sum);
        }
    }

    @Override
    public synchronized void event(io.quanta.schemas.JobEvent event) {
        events++;
    }

    @Override
    public synchronized void telemetry(io.quanta.schemas.JobTelemetry record) {
        telemetry++;
    }

    @Override
    public synchronized void heartbeat(io.quanta.schemas.NodeHeartbeat heartbeat) {
        heartbeats++;
    }

    /** Jobs of the workload that ended (finished, failed, rejected or cancelled). */
    public synchronized int ended() {
        return ended;
    }

    /** Whether every job of the workload ended. */
    public synchronized boolean allEnded() {
        return ended >= trace.size();
    }

    /** Records the cluster's state now (wall {@code now}, simulated {@code simulatedSeconds}). */
    public synchronized void sample(Instant now, double simulatedSeconds, ClusterView.Snapshot view) {
        if (lastSample != null) {
            allocatedGpuSeconds += lastBusy * Duration.between(lastSample, now).toMillis() / 1000.0 * speed;
        } else {
            firstSample = now;
        }
        lastSample = now;
        lastBusy = view.busyGpus();
        samples++;
        timeline.advanceTo(simulatedSeconds, at -> new TimelineSample(at, view.busyGpus(), view.busyGpus(),
                view.running(), view.jobs(JobState.QUEUED)));
    }

    /** The run so far, labelled {@code label}, as the simulator's report writers expect it. */
    public synchronized SimulationRun run(String label, String stopReason) {
        List<JobOutcome> outcomes = new ArrayList<>();
        double lastSimulated = 0;
        for (TraceJob job : trace.jobs()) {
            String id = ids.apply(job);
            JobOutcome outcome = outcome(job, id, latest.get(id));
            outcomes.add(outcome);
            lastSimulated = Math.max(lastSimulated, outcome.finishSeconds().orElse(outcome.submitSeconds()));
        }
        double wall = firstSample == null ? 0 : Duration.between(firstSample, lastSample).toMillis() / 1000.0;
        long decisionCount = decisions.values().stream().mapToLong(Long::longValue).sum();
        InputCounts inputs = new InputCounts(latest.size(), events, telemetry, heartbeats, 0);
        RunStats stats = new RunStats(totalGpus, allocatedGpuSeconds, lastSimulated, wall, decisionCount,
                inputs.total(), samples, 0, stopReason, inputs);
        return new SimulationRun(label, outcomes, timeline.samples(), stats, decisions);
    }

    private JobOutcome outcome(TraceJob job, String id, JobStatus s) {
        double submit = job.submitSeconds();
        OptionalDouble start = OptionalDouble.empty();
        OptionalDouble finish = OptionalDouble.empty();
        if (s != null && s.getSubmittedAt() != null) {
            if (s.getFirstStartedAt() != null) {
                start = OptionalDouble.of(submit + simulated(s.getSubmittedAt(), s.getFirstStartedAt()));
            }
            if (s.getState() == JobState.FINISHED && s.getFinishedAt() != null) {
                finish = OptionalDouble.of(submit + simulated(s.getSubmittedAt(), s.getFinishedAt()));
            }
        }
        return new JobOutcome(id, job.tenant(), profiles.kindOf(job.jobId()).modelName(), job.numGpus(),
                job.durationSeconds(), submit, start, finish, s == null ? 0 : s.getPreemptions(),
                s == null ? 0 : s.getMigrations(), widest.getOrDefault(id, 0),
                s == null ? "NOT_SEEN" : s.getState().name(), OptionalDouble.empty());
    }

    private double simulated(Instant from, Instant to) {
        return Math.max(0, Duration.between(from, to).toMillis() / 1000.0 * speed);
    }
}
