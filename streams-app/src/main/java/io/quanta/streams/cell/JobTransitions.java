package io.quanta.streams.cell;

import io.quanta.core.model.GpuId;
import io.quanta.core.model.JobState;
import io.quanta.schemas.DecisionType;
import io.quanta.schemas.NodeCommandType;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;

/**
 * The life-cycle rules of a job inside a cell: starting an attempt on GPUs (reserved in state before the commands
 * go out), ending a run (service accrues as GPUs x stream time since STARTED), requeueing with the next attempt,
 * retrying failures up to the job's limit, cancelling, and finishing. Every change marks the job's status.
 */
final class JobTransitions {

    /** How an attempt ended, as far as the scheduler is concerned. */
    enum End { COMPLETED, FAILED, SUSPENDED, LOST }

    /**
     * Starts the job's next attempt on {@code gpus}: reserves them, writes the decision, sends START to every node of
     * the gang.
     */
    void start(Step s, JobRecord job, List<GpuId> gpus, List<String> sharingWith, DecisionType type, String reason,
               SortedMap<String, String> details) {
        CellState cell = s.cell;
        job.attempt++;
        job.state = JobState.STARTING;
        job.queuedSinceMs = -1;
        job.throughput = Double.NaN;
        job.sharingWith = new ArrayList<>(sharingWith);
        job.reason = reason;
        AssignmentRecord assignment = new AssignmentRecord(job.jobId, job.attempt, gpus, s.now);
        cell.putAssignment(assignment);
        cell.jobChanged(job);
        s.write(s.decision(type, job.jobId, job.attempt, reason).setGpus(Step.refs(assignment.placement()))
                .setSharingWith(List.copyOf(job.sharingWith)).setDetails(details));
        for (String nodeId : assignment.nodes()) {
            s.command(Commands.start(job, assignment, cell.nodes.get(nodeId), s.now));
        }
        s.statusChanged(job);
    }

    /**
     * The current attempt ended on {@code nodeId} (null: decided by the scheduler, e.g. node lost): accrue service,
     * free the GPUs, and apply the job-level consequence (finish, retry, requeue, restart after a migration).
     */
    void attemptEnded(Step s, JobRecord job, String nodeId, End end, String message, String checkpointRef) {
        AssignmentRecord assignment = s.cell.assignments.get(job.jobId);
        List<GpuId> reserved = assignment == null ? List.of() : assignment.reservedGpus();
        int attempt = job.attempt;
        endRun(s, job, nodeId);
        if (end == End.FAILED || end == End.LOST) {
            job.drainPeers = killPeers(s, job, attempt);
        }
        if (checkpointRef != null) {
            job.checkpointRef = checkpointRef;
        }
        String where = nodeId == null ? "" : " on node " + nodeId;
        if (job.cancelRequested) {
            finish(s, job, JobState.CANCELLED, "cancelled; attempt " + attempt + " ended" + where + " (" + end + ")");
            return;
        }
        switch (end) {
            case COMPLETED -> finish(s, job, JobState.FINISHED, "completed attempt " + attempt + where);
            case FAILED -> failed(s, job, attempt, where, message);
            case LOST -> requeue(s, job, "attempt " + attempt + " lost" + where + ": " + message);
            case SUSPENDED -> suspended(s, job, attempt, where, reserved);
        }
        if (job.drainPeers && job.state == JobState.QUEUED) {
            job.reason = job.reason + "; waits until attempt " + attempt + " stopped on "
                    + String.join(", ", job.pendingPeerEnds) + " (KILL sent)";
            s.statusChanged(job);
        }
    }

    /**
     * A member of an ended gang attempt is known to have stopped (its end event, a heartbeat that no longer lists
     * the attempt, or its node lost).
     *
     * @return true when that was the last member a draining job waited for: it may start again (a pass should run)
     */
    boolean peerStopped(Step s, JobRecord job, String nodeId) {
        if (!job.pendingPeerEnds.contains(nodeId)) {
            return false;
        }
        job.pendingPeerEnds = job.pendingPeerEnds.stream().filter(n -> !n.equals(nodeId)).toList();
        boolean released = job.drainPeers && job.pendingPeerEnds.isEmpty();
        if (released) {
            job.drainPeers = false;
            s.cell.changeMeta(m -> m.dirty = true);
        }
        s.cell.jobChanged(job);
        return released;
    }

    private void failed(Step s, JobRecord job, int attempt, String where, String message) {
        job.failures++;
        job.lastMessage = message;
        String text = message == null || message.isBlank() ? "no message" : message;
        if (job.failures > job.maxRetries) {
            finish(s, job, JobState.FAILED, "attempt " + attempt + " failed" + where + " and the job has used its "
                    + job.maxRetries + " retries: " + text);
        } else {
            requeue(s, job, "attempt " + attempt + " failed" + where + " (" + text + "); retry " + job.failures
                    + " of " + job.maxRetries);
        }
    }

    private void suspended(Step s, JobRecord job, int attempt, String where, List<GpuId> reserved) {
        if (!reserved.isEmpty() && reserved.stream().allMatch(g -> s.cell.usable(g) && s.cell.occupants(g).isEmpty())) {
            job.placementChangedAtMs = s.now;
            start(s, job, reserved, List.of(), DecisionType.START, "migration of job " + job.jobId
                    + ": restart on the reserved GPUs after attempt " + attempt + " checkpointed" + where,
                    Step.details("from", String.join(",", job.previousPlacement)));
            return;
        }
        job.state = JobState.QUEUED;
        job.queuedSinceMs = s.now;
        clearIntrospection(job);
        job.reason = "suspended: attempt " + attempt + " checkpointed" + where + "; queued again at level "
                + job.queueLevel;
        s.cell.jobChanged(job);
        s.statusChanged(job);
    }

    /** Back to the queue; the next start is a new attempt that resumes from the last checkpoint. */
    void requeue(Step s, JobRecord job, String reason) {
        job.state = JobState.QUEUED;
        job.queuedSinceMs = s.now;
        job.reason = reason;
        clearIntrospection(job);
        s.cell.jobChanged(job);
        s.write(s.decision(DecisionType.REQUEUE, job.jobId, job.attempt, reason)
                .setDetails(Step.details("attempt", job.attempt, "failures", job.failures,
                        "checkpointRef", job.checkpointRef == null ? "" : job.checkpointRef)));
        s.statusChanged(job);
    }

    /** Terminal state: out of the active set; a completed job's service feeds the learned distribution. */
    void finish(Step s, JobRecord job, JobState terminal, String reason) {
        CellState cell = s.cell;
        if (cell.assignments.containsKey(job.jobId)) {
            endRun(s, job, null);
        }
        job.state = terminal;
        job.finishedAtMs = s.now;
        job.queuedSinceMs = -1;
        job.reason = reason;
        if (terminal == JobState.FINISHED) {
            cell.serviceDistribution = cell.serviceDistribution.record(job.attainedBase);
            cell.memoryChanged();
        }
        s.write(s.decision(terminal == JobState.REJECTED ? DecisionType.REJECT : DecisionType.FINISH, job.jobId,
                job.attempt, reason).setDetails(Step.details("state", terminal, "attainedGpuSeconds",
                job.attainedBase, "failures", job.failures)));
        s.statusChanged(job);
        cell.finishJob(job);
    }

    /** Cancellation: a queued job ends at once; a job holding GPUs is killed and ends CANCELLED when it stops. */
    boolean cancel(Step s, JobRecord job, String why) {
        String reason = "cancelled by request" + (why == null || why.isBlank() ? "" : ": " + why);
        if (job.state == JobState.QUEUED) {
            finish(s, job, JobState.CANCELLED, reason);
            return true;
        }
        job.cancelRequested = true;
        job.reason = reason + "; stopping attempt " + job.attempt;
        s.cell.jobChanged(job);
        AssignmentRecord assignment = s.cell.assignments.get(job.jobId);
        s.write(s.decision(DecisionType.KILL, job.jobId, job.attempt, reason)
                .setGpus(assignment == null ? List.of() : Step.refs(assignment.placement())));
        if (assignment != null) {
            for (String nodeId : assignment.nodes()) {
                s.command(Commands.stop(NodeCommandType.KILL, job.jobId, assignment.attempt(), s.cell.nodes.get(nodeId),
                        s.now));
            }
        }
        s.statusChanged(job);
        return false;
    }

    /** The first STARTED of an attempt starts the service clock; the job is RUNNING. */
    void started(Step s, JobRecord job, AssignmentRecord assignment, String nodeId) {
        if (!assignment.startedNodes().contains(nodeId)) {
            assignment = assignment.startedOn(nodeId);
            s.cell.putAssignment(assignment);
        }
        if (job.runStartedAtMs < 0) {
            job.runStartedAtMs = s.now;
            job.lastStartedAtMs = s.now;
            if (job.firstStartedAtMs < 0) {
                job.firstStartedAtMs = s.now;
            }
        }
        if (job.state == JobState.STARTING) {
            job.state = JobState.RUNNING;
            job.reason = "running attempt " + job.attempt + " on " + Step.names(assignment.placement());
            s.statusChanged(job);
        }
        s.cell.jobChanged(job);
    }

    /** Accrues the service of the run that ends now and frees the attempt's GPUs. */
    private void endRun(Step s, JobRecord job, String endingNode) {
        CellState cell = s.cell;
        if (job.runStartedAtMs >= 0) {
            double seconds = Math.max(0, s.now - job.runStartedAtMs) / 1000.0;
            job.attainedBase += job.numGpus * seconds;
            job.lastRunSeconds = seconds;
            job.runStartedAtMs = -1;
        } else {
            job.lastRunSeconds = 0;
        }
        AssignmentRecord assignment = cell.assignments.get(job.jobId);
        if (assignment != null) {
            List<String> peers = new ArrayList<>(assignment.nodes());
            peers.remove(endingNode);
            job.endedAttempt = assignment.attempt();
            job.pendingPeerEnds = peers;
            cell.removeAssignment(job.jobId);
        }
        for (String partnerId : job.sharingWith) {
            JobRecord partner = cell.jobs.get(partnerId);
            if (partner != null) {
                List<String> rest = new ArrayList<>(partner.sharingWith);
                rest.remove(job.jobId);
                partner.sharingWith = rest;
                if (rest.isEmpty()) {
                    clearIntrospection(partner);
                }
                cell.jobChanged(partner);
            }
        }
        job.sharingWith = new ArrayList<>();
        cell.jobChanged(job);
    }

    /**
     * Kills the attempt on the gang's other nodes that have not reported its end yet; the members on nodes already
     * lost need no answer (their connectors fenced themselves).
     *
     * @return whether any member was told to KILL (the job must wait for it)
     */
    private boolean killPeers(Step s, JobRecord job, int attempt) {
        List<String> waiting = new ArrayList<>();
        for (String nodeId : job.pendingPeerEnds) {
            NodeRecord node = s.cell.nodes.get(nodeId);
            if (node != null && node.alive()) {
                s.command(Commands.stop(NodeCommandType.KILL, job.jobId, attempt, node, s.now));
                waiting.add(nodeId);
            }
        }
        job.pendingPeerEnds = waiting;
        return !waiting.isEmpty();
    }

    static void clearIntrospection(JobRecord job) {
        job.placementChangedAtMs = -1;
        job.baselineThroughput = Double.NaN;
        job.previousPlacement = new ArrayList<>();
    }
}
