package io.quanta.sim.testing;

import io.quanta.schemas.GpuRef;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.JobSubmitted;
import io.quanta.schemas.JobTelemetry;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeCommandType;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.sim.engine.ScheduledCluster;
import io.quanta.sim.engine.SchedulerOutput;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A test double of the scheduler side, to test the event loop's mechanics alone: it schedules nothing itself; each job
 * is started at its arrival on the GPUs a test gave it in advance, and marked FINISHED on its first COMPLETED event.
 * It records every input so tests can check what the loop sent. Not a scheduler: it never decides anything.
 */
public final class PlannedScheduler implements ScheduledCluster {

    private final Map<String, List<GpuRef>> plan;
    private final Map<String, JobSubmitted> jobs = new HashMap<>();
    private final List<NodeCommand> commands = new ArrayList<>();
    private final List<JobStatus> statuses = new ArrayList<>();
    private final Optional<Instant> wakeUp;
    public final List<JobSubmitted> submissions = new ArrayList<>();
    public final List<NodeHeartbeat> heartbeats = new ArrayList<>();
    public final List<JobEvent> events = new ArrayList<>();
    public final List<JobTelemetry> telemetry = new ArrayList<>();
    private long inputs;
    private int commandSeq;

    /** @param plan the GPUs of each job id, all started at arrival as attempt 1 */
    public PlannedScheduler(Map<String, List<GpuRef>> plan) {
        this(plan, Optional.empty());
    }

    /** A double that also reports a fixed next wake-up. */
    public PlannedScheduler(Map<String, List<GpuRef>> plan, Optional<Instant> wakeUp) {
        this.plan = Map.copyOf(plan);
        this.wakeUp = wakeUp;
    }

    @Override
    public void submit(JobSubmitted job, Instant at) {
        inputs++;
        submissions.add(job);
        jobs.put(job.getJobId(), job);
        List<GpuRef> gpus = plan.get(job.getJobId());
        if (gpus == null) {
            return;
        }
        Map<String, List<Integer>> byNode = new TreeMap<>();
        gpus.forEach(g -> byNode.computeIfAbsent(g.getNodeId(), k -> new ArrayList<>()).add(g.getIndex()));
        byNode.forEach((node, indices) -> commands.add(NodeCommand.newBuilder()
                .setCommandId("c" + commandSeq++)
                .setNodeId(node)
                .setEpoch(1)
                .setJobId(job.getJobId())
                .setAttempt(1)
                .setType(NodeCommandType.START)
                .setGpuIndices(indices)
                .setProfile(job.getProfile())
                .setExpectedDurationSeconds(job.getExpectedDurationSeconds())
                .setPlacement(gpus)
                .setIssuedAt(at)
                .build()));
    }

    @Override
    public void heartbeat(NodeHeartbeat heartbeat) {
        inputs++;
        heartbeats.add(heartbeat);
    }

    @Override
    public void event(JobEvent event) {
        inputs++;
        events.add(event);
        if (event.getType() == io.quanta.schemas.JobEventType.COMPLETED
                && statuses.stream().noneMatch(s -> s.getJobId().equals(event.getJobId()))) {
            JobSubmitted job = jobs.get(event.getJobId());
            statuses.add(JobStatus.newBuilder()
                    .setJobId(event.getJobId())
                    .setState(JobState.FINISHED)
                    .setNumGpus(job.getNumGpus())
                    .setFinishedAt(event.getAt())
                    .setUpdatedAt(event.getAt())
                    .build());
        }
    }

    @Override
    public void telemetry(JobTelemetry t) {
        inputs++;
        telemetry.add(t);
    }

    @Override
    public SchedulerOutput drain() {
        SchedulerOutput out = new SchedulerOutput(commands, List.of(), statuses, 0);
        commands.clear();
        statuses.clear();
        return out;
    }

    @Override
    public Optional<Instant> nextWakeUp() {
        return wakeUp;
    }

    @Override
    public long inputRecords() {
        return inputs;
    }

    @Override
    public void close() {
        // nothing to release
    }
}
