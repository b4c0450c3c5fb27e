package io.quanta.streams.cell;

import io.quanta.core.model.JobState;
import io.quanta.core.policy.SchedulingPolicy;
import io.quanta.schemas.CellInput;
import io.quanta.schemas.JobCancelRequested;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.JobSubmitted;
import io.quanta.schemas.JobTelemetry;
import io.quanta.schemas.NodeCommandType;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.schemas.SourceRef;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cell scheduler's logic, free of Kafka: applies one inbox record to a cell's state at the record's stream time
 * and runs a scheduling pass when the input asks for one (arrival, end of an attempt, cancellation, node change),
 * when the policy's wake-up time or a node-liveness deadline has been reached, or at the first record of a new
 * quantum when the state changed without a pass. Time is the cell's own stream time (the largest timestamp of its
 * inbox records), so a cell's decisions are a function of its inbox records alone: replaying them into a fresh
 * engine reproduces them, whichever other cells share the partition.
 */
public final class CellEngine {

    private static final Logger LOG = LoggerFactory.getLogger(CellEngine.class);
    /** Relative change of a job's measured throughput below which telemetry does not update the state. */
    private static final double THROUGHPUT_RESOLUTION = 0.01;

    private final ConfigFingerprint config;
    private final long passIntervalMs;
    private final JobTransitions jobs = new JobTransitions();
    private final NodeTransitions nodes;
    private final PassRunner passes;
    private final AttemptWatch watch;

    public CellEngine(SchedulingPolicy policy, Duration passInterval, Duration nodeTimeout, ConfigFingerprint config) {
        this(policy, passInterval, nodeTimeout, AttemptTimeouts.OFF, config, PassTimer.NONE);
    }

    /**
     * @param timeouts how long attempts may wait for STARTED and SUSPENDED
     * @param timer    measures each scheduling pass for metrics (never consulted for decisions)
     */
    public CellEngine(SchedulingPolicy policy, Duration passInterval, Duration nodeTimeout, AttemptTimeouts timeouts,
                      ConfigFingerprint config, PassTimer timer) {
        this.config = Objects.requireNonNull(config, "config");
        this.passIntervalMs = passInterval.toMillis();
        this.nodes = new NodeTransitions(jobs, nodeTimeout);
        this.watch = new AttemptWatch(jobs, timeouts);
        this.passes = new PassRunner(policy, jobs, Objects.requireNonNull(timer, "timer"));
    }

    /**
     * Applies one inbox record to its cell.
     *
     * @param timestamp the record's timestamp (stream time; the cell's time never goes back)
     * @param offset    the record's offset in the inbox partition, -1 when unknown
     */
    public void process(CellState cell, CellInput input, long timestamp, long offset, CellOutput out) {
        if (input.getInput() instanceof JobTelemetry telemetry) {
            telemetry(new Step(cell, Math.max(cell.meta().timeMs(), 0), timestamp, offset, out, config), telemetry,
                    input.getSource());
            return;
        }
        long now = Math.max(cell.meta().timeMs(), timestamp);
        if (now != cell.meta().timeMs()) { // every record comes here: no copy of the meta when time stands still
            cell.changeMeta(m -> m.timeMs = now);
        }
        Step s = new Step(cell, now, timestamp, offset, out, config);
        // CONFIG goes out on the first inbox record handled under a new configuration, so audit replay switches
        // configuration at exactly that record.
        s.recordConfig();
        boolean pass = apply(s, input);
        pass |= nodes.checkLiveness(s);
        long nextTick = cell.meta().nextTickMs();
        boolean tick = nextTick >= 0 && now >= nextTick;
        if (tick) {
            pass |= watch.checkTimeouts(s);
        }
        long wakeUp = cell.meta().policyWakeUpMs();
        if (pass || (wakeUp >= 0 && now >= wakeUp) || (tick && cell.meta().dirty())) {
            passes.run(s);
        }
        if (nextTick < 0 || tick) {
            cell.changeMeta(m -> m.nextTickMs = (Math.floorDiv(now, passIntervalMs) + 1) * passIntervalMs);
        }
        s.finish();
    }

    private boolean apply(Step s, CellInput input) {
        SourceRef source = input.getSource();
        return switch (input.getInput()) {
            case JobSubmitted job -> submitted(s, job, source);
            case JobCancelRequested cancel -> cancel(s, cancel, source);
            case NodeHeartbeat beat -> nodes.heartbeat(s, beat);
            case JobEvent event -> event(s, event, source);
            default -> throw new IllegalArgumentException("unknown cell input " + input.getInput().getClass());
        };
    }

    private boolean submitted(Step s, JobSubmitted submitted, SourceRef source) {
        CellState cell = s.cell;
        String id = submitted.getJobId();
        if (cell.job(id) != null || cell.finishedJob(id) != null) {
            s.ignored(id, 0, source, id, "duplicate submission of job " + id + " in cell " + cell.cellId, true);
            return false;
        }
        cell.changeMeta(m -> m.arrivalSeq++);
        long arrivalSeq = cell.meta().arrivalSeq();
        JobRecord.Draft j = new JobRecord.Draft();
        j.jobId = id;
        j.cellId = cell.cellId;
        j.tenant = submitted.getTenant();
        j.numGpus = submitted.getNumGpus();
        j.gpuType = submitted.getGpuType();
        j.priority = submitted.getPriority();
        j.maxRetries = submitted.getMaxRetries();
        j.modelName = submitted.getProfile().getModelName();
        j.tensorSizeSkew = submitted.getProfile().getTensorSizeSkew();
        j.gpuMemoryMiB = submitted.getProfile().getGpuMemoryMiB();
        j.minibatchMillis = submitted.getProfile().getMinibatchMillis();
        j.expectedDurationSeconds = submitted.getExpectedDurationSeconds();
        j.command = submitted.getCommand();
        j.env = submitted.getEnv();
        j.arrivalSeq = arrivalSeq;
        j.arrivedAtMs = s.now;
        j.submittedAtMs = submitted.getSubmittedAt().toEpochMilli();
        j.queuedSinceMs = s.now;
        j.reason = "queued in cell " + cell.cellId + ", waiting for the next scheduling pass";
        if (source != null) {
            j.sourceTopic = source.getTopic();
            j.sourcePartition = source.getPartition();
            j.sourceOffset = source.getOffset();
        }
        JobRecord job = j.build();
        cell.putJob(job);
        s.statusChanged(id);
        return true;
    }

    private boolean cancel(Step s, JobCancelRequested cancel, SourceRef source) {
        String id = cancel.getJobId();
        JobRecord job = s.cell.job(id);
        if (job == null) {
            JobRecord done = s.cell.finishedJob(id);
            s.ignored(id, done == null ? 0 : done.attempt(), source, id, done == null
                    ? "cancel of job " + id + " which cell " + s.cell.cellId + " does not know"
                    : "cancel of job " + id + " which already ended (" + done.state() + ")", done == null);
            return false;
        }
        if (cancel.getRequestedBy() != null && !cancel.getRequestedBy().equals(job.tenant())) {
            // tenants are authenticated by their submissions topic: one may not stop another's job
            s.ignored(id, job.attempt(), source, id, "cancel refused: tenant '" + cancel.getRequestedBy()
                    + "' may not cancel job " + id + " of tenant '" + job.tenant() + "'", true);
            return false;
        }
        if (job.cancelRequested()) {
            s.ignored(id, job.attempt(), source, id, "job " + id + " is already being cancelled", false);
            return false;
        }
        return jobs.cancel(s, job, cancel.getReason());
    }

    /**
     * Telemetry only refines a running job's measured throughput: it does not move the cell's time and never runs a
     * pass by itself (a changed throughput marks the state dirty for the next quantum), so a steady stream of
     * telemetry costs no state writes at all.
     */
    private void telemetry(Step s, JobTelemetry telemetry, SourceRef source) {
        String id = telemetry.getJobId();
        JobRecord job = s.cell.job(id);
        if (job == null && s.cell.finishedJob(id) == null) {
            // a job this cell has never had (or whose record expired): no node of it can be reporting on it, so the
            // record is bad input, not late telemetry, and goes to the dead letters with its reason
            s.recordConfig();
            s.ignored(id, telemetry.getAttempt(), source, id, "telemetry for job " + id + " which cell "
                    + s.cell.cellId + " does not know", true);
            return;
        }
        double rate = telemetry.getMinibatchesPerSecond();
        if (job == null || telemetry.getAttempt() != job.attempt() || !s.cell.assignments.containsKey(job.jobId())
                || !(rate >= 0) || Double.isInfinite(rate)) {
            // counted (cell meta, metric, status API) rather than dead-lettered: late telemetry of an attempt that
            // just ended is normal and frequent, and a dead letter per record would bury the ones that matter
            s.cell.changeMeta(m -> m.droppedTelemetry++);
            LOG.debug("cell {}: telemetry of {}#{} (rate {}) does not match a running attempt; not used",
                    s.cell.cellId, telemetry.getJobId(), telemetry.getAttempt(), rate);
            return;
        }
        double known = job.throughput();
        if (Double.isNaN(known) || Math.abs(rate - known) > THROUGHPUT_RESOLUTION * Math.max(known, 1e-9)) {
            s.cell.changeJob(job.jobId(), j -> j.throughput = rate);
            s.cell.changeMeta(m -> m.dirty = true);
        }
    }

    private boolean event(Step s, JobEvent event, SourceRef source) {
        CellState cell = s.cell;
        String id = event.getJobId();
        String nodeId = event.getNodeId();
        String what = event.getType() + " of job " + id + " attempt " + event.getAttempt() + " from node " + nodeId;
        if (!cell.nodes.containsKey(nodeId)) {
            s.ignored(id, event.getAttempt(), source, id, what + ": the node is not in cell " + cell.cellId, true);
            return false;
        }
        long nodeEpoch = cell.nodes.get(nodeId).epoch();
        if (event.getEpoch() != 0 && event.getEpoch() < nodeEpoch) {
            // a connector that restarted no longer owns what its earlier incarnation ran (it was reconciled at the
            // restart); epoch 0 is an event that does not state its connector's epoch
            s.ignored(id, event.getAttempt(), source, id, what + ": sent by an earlier incarnation of the node's "
                    + "connector (epoch " + event.getEpoch() + " < " + nodeEpoch + ")", true);
            return false;
        }
        JobRecord job = cell.job(id);
        if (job == null) {
            JobRecord done = cell.finishedJob(id);
            if (done != null && isPeerEnd(done, event)) {
                return false;
            }
            s.ignored(id, event.getAttempt(), source, id, done == null ? what + ": job unknown in cell " + cell.cellId
                    : what + ": the job already ended (" + done.state() + ")", done == null);
            return false;
        }
        AssignmentRecord assignment = cell.assignments.get(id);
        if (isPeerEnd(job, event) && (assignment == null || assignment.attempt() != event.getAttempt())) {
            return jobs.peerStopped(s, job, nodeId);
        }
        if (isKillRefusedForWantOfAttempt(job, event)) {
            // the member never ran the attempt, or had already ended it: it has stopped
            return jobs.peerStopped(s, job, nodeId);
        }
        if (event.getAttempt() != job.attempt()) {
            s.ignored(id, event.getAttempt(), source, id, what + ": late event of an old attempt, the current "
                    + "attempt is " + job.attempt(), true);
            return false;
        }
        if (assignment == null) {
            s.ignored(id, event.getAttempt(), source, id, what + ": the attempt already ended", false);
            return false;
        }
        if (!assignment.runsOn(nodeId)) {
            s.ignored(id, event.getAttempt(), source, id, what + ": the node is not in the attempt's placement", true);
            return false;
        }
        return switch (event.getType()) {
            case STARTED -> {
                jobs.started(s, job, assignment, nodeId);
                cell.changeMeta(m -> m.dirty = true);
                passes.refreshWakeUp(s);
                yield false;
            }
            case COMPLETED -> ended(s, job, nodeId, JobTransitions.End.COMPLETED, event);
            case FAILED -> ended(s, job, nodeId, JobTransitions.End.FAILED, event);
            case SUSPENDED -> ended(s, job, nodeId, JobTransitions.End.SUSPENDED, event);
            case LOST -> ended(s, job, nodeId, JobTransitions.End.LOST, event);
            case COMMAND_IGNORED -> commandIgnored(s, job, nodeId, event);
        };
    }

    private boolean ended(Step s, JobRecord job, String nodeId, JobTransitions.End end, JobEvent event) {
        jobs.attemptEnded(s, job, nodeId, end, event.getMessage(), event.getCheckpointRef());
        return true;
    }

    /** A START the node refused means the attempt will never run: requeue it. Other refusals are informational. */
    private boolean commandIgnored(Step s, JobRecord job, String nodeId, JobEvent event) {
        if (Commands.typeAnswered(event) == NodeCommandType.START && job.state() == JobState.STARTING) {
            jobs.attemptEnded(s, job, nodeId, JobTransitions.End.LOST, "node " + nodeId + " refused START: "
                    + event.getMessage(), null);
            return true;
        }
        LOG.info("cell {}: node {} ignored command {}: {}", s.cell.cellId, nodeId, event.getCommandId(),
                event.getMessage());
        return false;
    }

    /** A member's answer to the KILL of an ended attempt it does not run (never started there, or already ended). */
    private static boolean isKillRefusedForWantOfAttempt(JobRecord job, JobEvent event) {
        String message = event.getMessage() == null ? "" : event.getMessage();
        return event.getType() == JobEventType.COMMAND_IGNORED && event.getAttempt() == job.endedAttempt()
                && job.pendingPeerEnds().contains(event.getNodeId()) && message.startsWith("KILL ignored")
                && (message.contains("was never started on node") || message.contains("already ended"));
    }

    /** The end of an attempt reported by a gang peer after the scheduler already ended that attempt. */
    private static boolean isPeerEnd(JobRecord job, JobEvent event) {
        JobEventType type = event.getType();
        boolean end = type == JobEventType.COMPLETED || type == JobEventType.FAILED
                || type == JobEventType.SUSPENDED || type == JobEventType.LOST;
        return end && event.getAttempt() == job.endedAttempt() && job.pendingPeerEnds().contains(event.getNodeId());
    }
}
