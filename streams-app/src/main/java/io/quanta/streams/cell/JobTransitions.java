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
     *
     * @return the job as it is now
     */
    JobRecord start(Step s, JobRecord job, List<GpuId> gpus, List<String> sharingWith, DecisionType type,
                    String reason, SortedMap<String, String> details) {
        CellState cell = s.cell;
        JobRecord started = cell.changeJob(job.jobId(), j -> {
            j.attempt++;
            j.state = JobState.STARTING;
            j.queuedSinceMs = -1;
            j.throughput = Double.NaN;
            j.sharingWith = sharingWith;
            j.reason = reason;
        });
        AssignmentRecord assignment = new AssignmentRecord(started.jobId(), started.attempt(), gpus, s.now);
        cell.putAssignment(assignment);
        s.write(s.decision(type, started.jobId(), started.attempt(), reason)
                .setGpus(Step.refs(assignment.placement())).setSharingWith(started.sharingWith())
                .setDetails(details));
        for (String nodeId : assignment.nodes()) {
            s.command(Commands.start(started, assignment, cell.nodes.get(nodeId), s.now));
        }
        s.statusChanged(started.jobId());
        return started;
    }

    /**
     * The current attempt ended on {@code nodeId} (null: decided by the scheduler, e.g. node lost): accrue service,
     * free the GPUs, and apply the job-level consequence (finish, retry, requeue, restart after a migration).
     */
    void attemptEnded(Step s, JobRecord job, String nodeId, End end, String message, String checkpointRef) {
        String id = job.jobId();
        AssignmentRecord assignment = s.cell.assignments.get(id);
        List<GpuId> reserved = assignment == null ? List.of() : assignment.reservedGpus();
        int attempt = job.attempt();
        job = endRun(s, job, nodeId);
        if (end == End.FAILED || end == End.LOST) {
            job = killPeers(s, job, attempt);
        }
        if (checkpointRef != null) {
            job = s.cell.changeJob(id, j -> j.checkpointRef = checkpointRef);
        }
        String where = nodeId == null ? "" : " on node " + nodeId;
        if (job.cancelRequested()) {
            finish(s, job, JobState.CANCELLED, "cancelled; attempt " + attempt + " ended" + where + " (" + end + ")");
            return;
        }
        switch (end) {
            case COMPLETED -> finish(s, job, JobState.FINISHED, "completed attempt " + attempt + where);
            case FAILED -> failed(s, job, attempt, where, message);
            case LOST -> requeue(s, job, "attempt " + attempt + " lost" + where + ": " + message);
            case SUSPENDED -> suspended(s, job, attempt, where, reserved);
        }
        JobRecord now = s.cell.job(id);
        if (now != null && now.drainPeers() && now.state() == JobState.QUEUED) {
            s.cell.changeJob(id, j -> j.reason = j.reason + "; waits until attempt " + attempt + " stopped on "
                    + String.join(", ", j.pendingPeerEnds) + " (KILL sent)");
            s.statusChanged(id);
        }
    }

    /**
     * A member of an ended gang attempt is known to have stopped (its end event, a heartbeat that no longer lists
     * the attempt, or its node lost).
     *
     * @return true when that was the last member a draining job waited for: it may start again (a pass should run)
     */
    boolean peerStopped(Step s, JobRecord job, String nodeId) {
        if (!job.pendingPeerEnds().contains(nodeId)) {
            return false;
        }
        List<String> pending = job.pendingPeerEnds().stream().filter(n -> !n.equals(nodeId)).toList();
        boolean released = job.drainPeers() && pending.isEmpty();
        s.cell.changeJob(job.jobId(), j -> {
            j.pendingPeerEnds = pending;
            if (released) {
                j.drainPeers = false;
            }
        });
        if (released) {
            s.cell.changeMeta(m -> m.dirty = true);
        }
        return released;
    }

    private void failed(Step s, JobRecord job, int attempt, String where, String message) {
        job = s.cell.changeJob(job.jobId(), j -> {
            j.failures++;
            j.lastMessage = message;
        });
        String text = message == null || message.isBlank() ? "no message" : message;
        if (job.failures() > job.maxRetries()) {
            finish(s, job, JobState.FAILED, "attempt " + attempt + " failed" + where + " and the job has used its "
                    + job.maxRetries() + " retries: " + text);
        } else {
            requeue(s, job, "attempt " + attempt + " failed" + where + " (" + text + "); retry " + job.failures()
                    + " of " + job.maxRetries());
        }
    }

    private void suspended(Step s, JobRecord job, int attempt, String where, List<GpuId> reserved) {
        if (!reserved.isEmpty() && reserved.stream().allMatch(g -> s.cell.usable(g) && s.cell.occupants(g).isEmpty())) {
            job = s.cell.changeJob(job.jobId(), j -> j.placementChangedAtMs = s.now);
            start(s, job, reserved, List.of(), DecisionType.START, "migration of job " + job.jobId()
                    + ": restart on the reserved GPUs after attempt " + attempt + " checkpointed" + where,
                    Step.details("from", String.join(",", job.previousPlacement())));
            return;
        }
        s.cell.changeJob(job.jobId(), j -> {
            j.state = JobState.QUEUED;
            j.queuedSinceMs = s.now;
            clearIntrospection(j);
            j.reason = "suspended: attempt " + attempt + " checkpointed" + where + "; queued again at level "
                    + j.queueLevel;
        });
        s.statusChanged(job.jobId());
    }

    /** Back to the queue; the next start is a new attempt that resumes from the last checkpoint. */
    void requeue(Step s, JobRecord job, String reason) {
        JobRecord queued = s.cell.changeJob(job.jobId(), j -> {
            j.state = JobState.QUEUED;
            j.queuedSinceMs = s.now;
            j.reason = reason;
            clearIntrospection(j);
        });
        s.write(s.decision(DecisionType.REQUEUE, queued.jobId(), queued.attempt(), reason)
                .setDetails(Step.details("attempt", queued.attempt(), "failures", queued.failures(),
                        "checkpointRef", queued.checkpointRef() == null ? "" : queued.checkpointRef())));
        s.statusChanged(queued.jobId());
    }

    /** Terminal state: out of the active set; a completed job's service feeds the learned distribution. */
    void finish(Step s, JobRecord job, JobState terminal, String reason) {
        CellState cell = s.cell;
        if (cell.assignments.containsKey(job.jobId())) {
            job = endRun(s, job, null);
        }
        JobRecord ended = cell.changeJob(job.jobId(), j -> {
            j.state = terminal;
            j.finishedAtMs = s.now;
            j.queuedSinceMs = -1;
            j.reason = reason;
        });
        if (terminal == JobState.FINISHED) {
            cell.recordService(ended.tenant(), ended.attainedBase());
        }
        s.write(s.decision(terminal == JobState.REJECTED ? DecisionType.REJECT : DecisionType.FINISH, ended.jobId(),
                ended.attempt(), reason).setDetails(Step.details("state", terminal, "attainedGpuSeconds",
                ended.attainedBase(), "failures", ended.failures())));
        s.statusChanged(ended.jobId());
        cell.finishJob(ended.jobId());
    }

    /** Cancellation: a queued job ends at once; a job holding GPUs is killed and ends CANCELLED when it stops. */
    boolean cancel(Step s, JobRecord job, String why) {
        String reason = "cancelled by request" + (why == null || why.isBlank() ? "" : ": " + why);
        if (job.state() == JobState.QUEUED) {
            finish(s, job, JobState.CANCELLED, reason);
            return true;
        }
        JobRecord cancelling = s.cell.changeJob(job.jobId(), j -> {
            j.cancelRequested = true;
            j.reason = reason + "; stopping attempt " + j.attempt;
        });
        AssignmentRecord assignment = s.cell.assignments.get(cancelling.jobId());
        s.write(s.decision(DecisionType.KILL, cancelling.jobId(), cancelling.attempt(), reason)
                .setGpus(assignment == null ? List.of() : Step.refs(assignment.placement())));
        if (assignment != null) {
            for (String nodeId : assignment.nodes()) {
                s.command(Commands.stop(NodeCommandType.KILL, cancelling.jobId(), assignment.attempt(),
                        s.cell.nodes.get(nodeId), s.now));
            }
        }
        s.statusChanged(cancelling.jobId());
        return false;
    }

    /** The first STARTED of an attempt starts the service clock; the job is RUNNING. */
    void started(Step s, JobRecord job, AssignmentRecord assignment, String nodeId) {
        if (!assignment.startedNodes().contains(nodeId)) {
            assignment = assignment.startedOn(nodeId);
            s.cell.putAssignment(assignment);
        }
        List<GpuId> placement = assignment.placement();
        JobRecord running = s.cell.changeJob(job.jobId(), j -> {
            if (j.runStartedAtMs < 0) {
                j.runStartedAtMs = s.now;
                j.lastStartedAtMs = s.now;
                if (j.firstStartedAtMs < 0) {
                    j.firstStartedAtMs = s.now;
                }
            }
            if (j.state == JobState.STARTING) {
                j.state = JobState.RUNNING;
                j.reason = "running attempt " + j.attempt + " on " + Step.names(placement);
            }
        });
        if (job.state() == JobState.STARTING) {
            s.statusChanged(running.jobId());
        }
    }

    /**
     * Accrues the service of the run that ends now, frees the attempt's GPUs and ends its GPU sharing.
     *
     * @return the job as it is now
     */
    private JobRecord endRun(Step s, JobRecord job, String endingNode) {
        CellState cell = s.cell;
        String id = job.jobId();
        AssignmentRecord assignment = cell.assignments.get(id);
        JobRecord ended = cell.changeJob(id, j -> {
            if (j.runStartedAtMs >= 0) {
                double seconds = Math.max(0, s.now - j.runStartedAtMs) / 1000.0;
                j.attainedBase += j.numGpus * seconds;
                j.lastRunSeconds = seconds;
                j.runStartedAtMs = -1;
            } else {
                j.lastRunSeconds = 0;
            }
            if (assignment != null) {
                List<String> peers = new ArrayList<>(assignment.nodes());
                peers.remove(endingNode);
                j.endedAttempt = assignment.attempt();
                j.pendingPeerEnds = peers;
            }
            j.sharingWith = List.of();
        });
        if (assignment != null) {
            cell.removeAssignment(id);
        }
        for (String partnerId : job.sharingWith()) {
            if (cell.job(partnerId) != null) {
                cell.changeJob(partnerId, p -> {
                    List<String> rest = new ArrayList<>(p.sharingWith);
                    rest.remove(id);
                    p.sharingWith = rest;
                    // its last measured rate is of the sharing that just ended: unknown until its next telemetry, so
                    // that a pack made before then does not take the shared rate as its speed alone (introspection
                    // would judge the new pack against it and keep a pack that gains nothing)
                    p.throughput = Double.NaN;
                    if (rest.isEmpty()) {
                        clearIntrospection(p);
                    }
                });
            }
        }
        return ended;
    }

    /**
     * Kills the attempt on the gang's other nodes that have not reported its end yet; the members on nodes already
     * lost need no answer (their connectors fenced themselves). The job drains (may not start again) while any member
     * was told to KILL.
     *
     * @return the job as it is now
     */
    private JobRecord killPeers(Step s, JobRecord job, int attempt) {
        List<String> waiting = new ArrayList<>();
        for (String nodeId : job.pendingPeerEnds()) {
            NodeRecord node = s.cell.nodes.get(nodeId);
            if (node != null && node.alive()) {
                s.command(Commands.stop(NodeCommandType.KILL, job.jobId(), attempt, node, s.now));
                waiting.add(nodeId);
            }
        }
        return s.cell.changeJob(job.jobId(), j -> {
            j.pendingPeerEnds = waiting;
            j.drainPeers = !waiting.isEmpty();
        });
    }

    static void clearIntrospection(JobRecord.Draft job) {
        job.placementChangedAtMs = -1;
        job.baselineThroughput = Double.NaN;
        job.previousPlacement = List.of();
    }
}
