package io.quanta.streams.cell;

import io.quanta.core.model.JobState;
import io.quanta.schemas.DecisionType;
import io.quanta.schemas.GpuInfo;
import io.quanta.schemas.NodeCommandType;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.schemas.RunningAttempt;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The node rules of a cell: registration and updates from heartbeats, loss after a stream-time silence, return,
 * connector restarts (a higher epoch: reconcile what the node runs with what the cell assigned), and nodes moving to
 * another cell. A node's jobs are requeued when the node can no longer be trusted to run them.
 */
final class NodeTransitions {

    private final JobTransitions jobs;
    private final long timeoutMs;

    NodeTransitions(JobTransitions jobs, Duration nodeTimeout) {
        this.jobs = jobs;
        this.timeoutMs = nodeTimeout.toMillis();
    }

    /** Applies a heartbeat; true when the node changed in a way a scheduling pass must see. */
    boolean heartbeat(Step s, NodeHeartbeat beat) {
        CellState cell = s.cell;
        if (s.recordTime > cell.meta().heartbeatTimeMs()) {
            cell.changeMeta(m -> m.heartbeatTimeMs = s.recordTime);
        }
        NodeRecord node = cell.nodes.get(beat.getNodeId());
        if (!cell.cellId.equals(beat.getCellId())) {
            if (node == null) {
                return false;
            }
            dropNodeJobs(s, node, "node " + node.nodeId() + " moved to cell " + beat.getCellId());
            cell.removeNode(node.nodeId());
            updateLiveness(cell);
            return true;
        }
        List<NodeRecord.GpuRecord> gpus = gpus(beat);
        if (node == null) {
            node = new NodeRecord(beat.getNodeId(), cell.cellId, beat.getRack(), beat.getEpoch(), true, s.recordTime,
                    s.now, gpus);
            cell.putNode(node);
            reconcile(s, node, beat.getRunning(), "node " + node.nodeId() + " joined cell " + cell.cellId);
            updateLiveness(cell);
            return true;
        }
        if (beat.getEpoch() < node.epoch()) {
            s.ignored(null, 0, null, node.nodeId(), "heartbeat of node " + node.nodeId() + " from an older connector "
                    + "incarnation (epoch " + beat.getEpoch() + " < " + node.epoch() + ")", false);
            return false;
        }
        boolean changed = false;
        node = node.seenAt(Math.max(node.lastSeenMs(), s.recordTime));
        cell.putNode(node);
        if (beat.getEpoch() > node.epoch()) {
            String why = "connector of node " + node.nodeId() + " restarted (epoch " + node.epoch() + " -> "
                    + beat.getEpoch() + ")";
            node = node.with(beat.getEpoch(), true);
            cell.putNode(node);
            reconcile(s, node, beat.getRunning(), why);
            changed = true;
        } else if (!node.alive()) {
            node = node.with(node.epoch(), true);
            cell.putNode(node);
            reconcile(s, node, beat.getRunning(), "node " + node.nodeId() + " is back");
            changed = true;
        }
        if (!sameHardware(gpus, node.gpus()) || !beat.getRack().equals(node.rack())) {
            node = node.withHardware(beat.getRack(), gpus);
            cell.putNode(node);
            changed = true;
        }
        if (!changed) {
            changed = confirmRunning(s, node, beat.getRunning());
        }
        changed |= releaseStoppedPeers(s, node, beat.getRunning());
        updateLiveness(cell);
        return changed;
    }

    /**
     * Marks the nodes silent for longer than the timeout on the cell's heartbeat clock as lost; true when any was.
     */
    boolean checkLiveness(Step s) {
        CellState cell = s.cell;
        long deadline = cell.meta().livenessDeadlineMs();
        long clock = cell.meta().heartbeatTimeMs();
        if (deadline < 0 || clock < deadline) {
            return false;
        }
        boolean lost = false;
        for (NodeRecord node : new ArrayList<>(cell.nodes.values())) {
            if (node.alive() && clock - node.lastSeenMs() > timeoutMs) {
                node = node.with(node.epoch(), false);
                cell.putNode(node);
                dropNodeJobs(s, node, "node " + node.nodeId() + " lost: no heartbeat since "
                        + Instant.ofEpochMilli(node.lastSeenMs()) + " while other nodes sent some until "
                        + Instant.ofEpochMilli(clock) + " (timeout " + timeoutMs + " ms)");
                lost = true;
            }
        }
        updateLiveness(cell);
        return lost;
    }

    /** Recomputes the stream time at which the next alive node would be lost. */
    void updateLiveness(CellState cell) {
        long deadline = -1;
        for (NodeRecord node : cell.nodes.values()) {
            if (node.alive()) {
                long lostAt = node.lastSeenMs() + timeoutMs + 1;
                deadline = deadline < 0 ? lostAt : Math.min(deadline, lostAt);
            }
        }
        if (deadline != cell.meta().livenessDeadlineMs()) { // every heartbeat comes here: copy only on a change
            long next = deadline;
            cell.changeMeta(m -> m.livenessDeadlineMs = next);
        }
    }

    /**
     * Makes the cell agree with what a (re)appearing node runs: attempts it runs that the cell did not assign to it
     * are killed; attempts assigned to it that it does not run are over (requeued).
     */
    private void reconcile(Step s, NodeRecord node, List<RunningAttempt> running, String why) {
        CellState cell = s.cell;
        Set<String> reported = new TreeSet<>();
        for (RunningAttempt r : running.stream().sorted((a, b) -> key(a).compareTo(key(b))).toList()) {
            reported.add(key(r));
            AssignmentRecord assignment = cell.assignments.get(r.getJobId());
            boolean known = assignment != null && assignment.attempt() == r.getAttempt()
                    && assignment.runsOn(node.nodeId());
            if (!known) {
                s.write(s.decision(DecisionType.KILL, r.getJobId(), r.getAttempt(), "reconcile: node " + node.nodeId()
                        + " runs attempt " + r.getAttempt() + " of job " + r.getJobId()
                        + " which this cell does not assign to it (" + why + ")"));
                s.command(Commands.stop(NodeCommandType.KILL, r.getJobId(), r.getAttempt(), node, s.now));
            }
        }
        for (String jobId : cell.jobsOnNode(node.nodeId())) {
            AssignmentRecord assignment = cell.assignments.get(jobId);
            JobRecord job = cell.job(jobId);
            if (assignment.runsOn(node.nodeId())) {
                if (!reported.contains(jobId + "#" + assignment.attempt())) {
                    jobs.attemptEnded(s, job, node.nodeId(), JobTransitions.End.LOST, "node " + node.nodeId()
                            + " does not run it (" + why + ")", null);
                }
            } else {
                cell.reserve(assignment, List.of());
            }
        }
    }

    /**
     * Every heartbeat of a node's current incarnation lists what it runs; when its job events were lost (a producer
     * that partitioned differently, a router that could not match them), this is how the cell still learns the truth,
     * once the events are overdue by a node timeout: an attempt the node runs but never reported STARTED is running;
     * an attempt it reported STARTED but no longer lists is over (LOST: requeued from its last checkpoint). The grace
     * keeps a heartbeat that overtook the attempt's own events from deciding anything.
     *
     * @return true when a job changed (a pass should run)
     */
    private boolean confirmRunning(Step s, NodeRecord node, List<RunningAttempt> running) {
        CellState cell = s.cell;
        Set<String> reported = new TreeSet<>();
        running.forEach(r -> reported.add(key(r)));
        boolean changed = false;
        for (String jobId : cell.jobsOnNode(node.nodeId())) {
            AssignmentRecord assignment = cell.assignments.get(jobId);
            JobRecord job = cell.job(jobId);
            if (job == null || !assignment.runsOn(node.nodeId()) || assignment.commandedAtMs() < 0
                    || s.recordTime - assignment.commandedAtMs() <= timeoutMs) {
                continue;
            }
            boolean listed = reported.contains(jobId + "#" + assignment.attempt());
            boolean started = assignment.startedNodes().contains(node.nodeId());
            if (listed && !started && job.state() == JobState.STARTING) {
                s.write(s.decision(DecisionType.CONFIRM_PLACEMENT, jobId, assignment.attempt(), "reconcile: node "
                        + node.nodeId() + " runs attempt " + assignment.attempt() + " of job " + jobId
                        + " but its STARTED event never arrived; counted as started"));
                jobs.started(s, job, assignment, node.nodeId());
                changed = true;
            } else if (!listed && started && job.state() == JobState.RUNNING
                    && s.recordTime - job.runStartedAtMs() > timeoutMs) {
                jobs.attemptEnded(s, job, node.nodeId(), JobTransitions.End.LOST, "the heartbeats of node "
                        + node.nodeId() + " no longer list it and no end event arrived", null);
                changed = true;
            }
        }
        return changed;
    }

    /** The node cannot run anything any more: its attempts are over, migrations towards it are abandoned. */
    /**
     * The members of ended gang attempts that this node no longer runs have stopped: a job waiting for them may start
     * again. Their own end events are what normally says so; a heartbeat that does not list the attempt counts only
     * once those events are overdue by a node timeout (a heartbeat built before the node processed its KILL, or even
     * its START, may not list an attempt that is about to run).
     */
    private boolean releaseStoppedPeers(Step s, NodeRecord node, List<RunningAttempt> running) {
        boolean released = false;
        for (String jobId : s.cell.drainingJobs()) {
            JobRecord job = s.cell.job(jobId);
            if (job.pendingPeerEnds().contains(node.nodeId()) && s.recordTime - job.queuedSinceMs() > timeoutMs
                    && running.stream().noneMatch(r ->
                    r.getJobId().equals(job.jobId()) && r.getAttempt() == job.endedAttempt())) {
                released |= jobs.peerStopped(s, job, node.nodeId());
            }
        }
        return released;
    }

    private void dropNodeJobs(Step s, NodeRecord node, String why) {
        CellState cell = s.cell;
        for (String jobId : cell.drainingJobs()) {
            // a lost node's connector fenced itself before the timeout
            jobs.peerStopped(s, cell.job(jobId), node.nodeId());
        }
        for (String jobId : cell.jobsOnNode(node.nodeId())) {
            AssignmentRecord assignment = cell.assignments.get(jobId);
            if (assignment.runsOn(node.nodeId())) {
                if (node.alive()) {
                    s.command(Commands.stop(NodeCommandType.KILL, jobId, assignment.attempt(), node, s.now));
                }
                jobs.attemptEnded(s, cell.job(jobId), node.nodeId(), JobTransitions.End.LOST, why, null);
            } else {
                cell.reserve(assignment, List.of());
            }
        }
    }

    /** Same GPUs as far as scheduling is concerned (index, model, memory, health; error texts may vary). */
    private static boolean sameHardware(List<NodeRecord.GpuRecord> a, List<NodeRecord.GpuRecord> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            NodeRecord.GpuRecord x = a.get(i);
            NodeRecord.GpuRecord y = b.get(i);
            if (x.index() != y.index() || x.memoryMiB() != y.memoryMiB() || x.healthy() != y.healthy()
                    || !x.model().equals(y.model())) {
                return false;
            }
        }
        return true;
    }

    private static String key(RunningAttempt r) {
        return r.getJobId() + "#" + r.getAttempt();
    }

    private static List<NodeRecord.GpuRecord> gpus(NodeHeartbeat beat) {
        List<NodeRecord.GpuRecord> out = new ArrayList<>(beat.getGpus().size());
        for (GpuInfo g : beat.getGpus()) {
            out.add(new NodeRecord.GpuRecord(g.getIndex(), g.getModel(), g.getMemoryTotalMiB(), g.getHealthy(),
                    g.getError()));
        }
        out.sort((a, b) -> Integer.compare(a.index(), b.index()));
        return out;
    }
}
