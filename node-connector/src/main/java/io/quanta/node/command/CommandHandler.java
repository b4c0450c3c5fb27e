package io.quanta.node.command;

import io.quanta.node.runner.AttemptId;
import io.quanta.node.runner.AttemptLaunch;
import io.quanta.node.runner.JobRunner;
import io.quanta.node.runner.RunnerEvent;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeCommandType;
import io.quanta.schemas.RunningAttempt;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies this node's {@link NodeCommand}s to a {@link JobRunner}, at most once each, and turns what the runner
 * reports into {@link JobEvent}s. The rules, in order:
 * <ol>
 *   <li>a command for another node is dropped silently (several nodes can share a partition);</li>
 *   <li>a command whose epoch is not this connector's epoch is ignored: older = issued for a previous incarnation,
 *       newer = another incarnation of this node runs;</li>
 *   <li>a command whose (job, attempt, type) was already applied is a duplicate and ignored;</li>
 *   <li>a command for an older attempt than the newest this node knows for the job is stale and ignored;</li>
 *   <li>SUSPEND or KILL for an attempt that does not run here (never started, or already ended) is ignored.</li>
 * </ol>
 * Every ignored command is reported as a {@code COMMAND_IGNORED} event with the reason. A START for a newer attempt
 * kills older attempts of the same job that still run here. Records are saved before the runner is called, so a
 * restarted connector never runs a command twice; {@link #recover()} rebuilds the running set from them. An event is
 * published before the record that it changes is saved, so a crash between the two repeats the event, never loses it.
 * Thread-safe: commands and runner events are serialised on the handler's lock.
 */
public final class CommandHandler {

    private static final Logger LOG = LoggerFactory.getLogger(CommandHandler.class);

    private final String nodeId;
    private final long epoch;
    private final JobRunner runner;
    private final AttemptStore store;
    private final JobEventSink sink;
    private final Clock clock;
    private final Map<AttemptId, AttemptRecord> records = new HashMap<>();
    private final Map<String, Integer> newestAttempt = new HashMap<>();
    private final NavigableSet<AttemptId> active = new TreeSet<>();

    /**
     * @param nodeId this node
     * @param epoch this connector incarnation's epoch (also in its heartbeats)
     * @param runner runs the attempts
     * @param store keeps the attempt records
     * @param sink receives the job events
     * @param clock timestamps of COMMAND_IGNORED events and of records
     */
    public CommandHandler(String nodeId, long epoch, JobRunner runner, AttemptStore store, JobEventSink sink,
                          Clock clock) {
        this.nodeId = nodeId;
        this.epoch = epoch;
        this.runner = runner;
        this.store = store;
        this.sink = sink;
        this.clock = clock;
    }

    /**
     * Loads the stored records and hands every attempt that was running to the runner to adopt (or to report how it
     * ended). Call once, before the first command.
     */
    public synchronized void recover() {
        List<AttemptRecord> stored = store.loadAll();
        stored.forEach(this::index);
        for (AttemptRecord record : stored) {
            if (record.status().isActive()) {
                LOG.info("recovering {} ({})", record.id(), record.status());
                try {
                    runner.recover(record.id(), record.status() == AttemptStatus.SUSPENDING, this::onRunnerEvent);
                } catch (RuntimeException e) {
                    // e.g. a damaged process record: the attempt is lost, the connector still starts
                    LOG.warn("cannot recover {}: {}", record.id(), e.toString());
                    runner.kill(record.id());
                    if (current(record.id()).status().isActive()) {
                        onRunnerEvent(new RunnerEvent.Lost(record.id(), clock.instant(), "the connector restarted and "
                                + "could not recover the attempt: " + e.getMessage()));
                    }
                    continue;
                }
                if (record.status() == AttemptStatus.KILLING && current(record.id()).status().isActive()) {
                    runner.kill(record.id());
                }
            }
        }
    }

    /** Applies one command (or ignores it, see the class contract). */
    public synchronized void handle(NodeCommand command) {
        if (!nodeId.equals(command.getNodeId())) {
            LOG.debug("command {} is for node {}, not {}", command.getCommandId(), command.getNodeId(), nodeId);
            return;
        }
        AttemptId id = new AttemptId(command.getJobId(), command.getAttempt());
        Optional<String> reason = rejection(command, id);
        if (reason.isPresent()) {
            ignore(command, reason.get());
            return;
        }
        switch (command.getType()) {
            case START -> start(command, id);
            case SUSPEND -> transition(command, id, AttemptStatus.SUSPENDING);
            case KILL -> transition(command, id, AttemptStatus.KILLING);
        }
    }

    /**
     * Reports every attempt that still runs as LOST with the reason, and forgets it: for a shutdown that ends them
     * (simulated jobs do not outlive their connector).
     */
    public synchronized void abandonAll(String reason) {
        endAll(reason, false);
    }

    /**
     * Self-fencing: reports every attempt that still runs as LOST with the reason, then kills it at once. Used when
     * the node has lost the broker for so long that the scheduler will give its attempts to other nodes; the LOST
     * comes first so that the runner's own end event (FAILED, killed) is not reported.
     *
     * @return the attempts fenced
     */
    public synchronized List<AttemptId> fence(String reason) {
        return endAll(reason, true);
    }

    private List<AttemptId> endAll(String reason, boolean kill) {
        Instant now = clock.instant();
        List<AttemptId> ended = new ArrayList<>(active);
        for (AttemptId id : ended) {
            onRunnerEvent(new RunnerEvent.Lost(id, now, reason));
            if (kill) {
                runner.kill(id);
            }
        }
        return ended;
    }

    /**
     * Forgets the attempts that ended before {@code cutoff}: their records, logs and working directories. When a
     * job's newest attempt here ended COMPLETED or FAILED and all its attempts are forgotten, the job's own directory
     * (its default checkpoint) goes too; a job whose newest attempt was SUSPENDED or LOST keeps its checkpoint, since
     * it may resume on this node. Running attempts are never touched, and commands for a forgotten attempt are still
     * refused: the newest attempt number of each job is kept, and commands of earlier connector incarnations are
     * fenced by their epoch.
     *
     * @return what was removed
     */
    public synchronized Sweep forgetEndedBefore(Instant cutoff) {
        long limit = cutoff.toEpochMilli();
        List<AttemptRecord> ended = records.values().stream()
                .filter(r -> !r.status().isActive() && r.updatedAtMillis() < limit)
                .sorted(Comparator.comparing(AttemptRecord::id))
                .toList();
        Map<String, AttemptRecord> newestEnded = new TreeMap<>();
        for (AttemptRecord r : ended) {
            store.delete(r.id());
            records.remove(r.id());
            newestEnded.merge(r.jobId(), r, (a, b) -> a.attempt() >= b.attempt() ? a : b);
        }
        Set<String> jobsWithAttempts = new HashSet<>();
        records.keySet().forEach(id -> jobsWithAttempts.add(id.jobId()));
        int jobs = 0;
        for (AttemptRecord newest : newestEnded.values()) {
            boolean finished = newest.status() == AttemptStatus.COMPLETED || newest.status() == AttemptStatus.FAILED;
            if (finished && !jobsWithAttempts.contains(newest.jobId())
                    && newest.attempt() == newestAttempt.getOrDefault(newest.jobId(), -1)) {
                store.deleteJob(newest.jobId());
                jobs++;
            }
        }
        if (!ended.isEmpty()) {
            LOG.info("forgot {} attempt(s) that ended before {} and the directories of {} finished job(s)",
                    ended.size(), cutoff, jobs);
        }
        return new Sweep(ended.size(), jobs);
    }

    /** What one {@link #forgetEndedBefore} removed. */
    public record Sweep(int attempts, int jobs) {
    }

    /** The attempts that hold GPUs here, for the heartbeat. */
    public synchronized List<RunningAttempt> running() {
        return active.stream()
                .map(records::get)
                .map(r -> new RunningAttempt(r.jobId(), r.attempt(), r.gpuIndices()))
                .toList();
    }

    /** The record of an attempt, if this node knows it. */
    public synchronized Optional<AttemptRecord> attempt(AttemptId id) {
        return Optional.ofNullable(records.get(id));
    }

    private Optional<String> rejection(NodeCommand command, AttemptId id) {
        if (command.getEpoch() < epoch) {
            return Optional.of("stale epoch: command for epoch " + command.getEpoch() + ", this connector runs epoch "
                    + epoch);
        }
        if (command.getEpoch() > epoch) {
            return Optional.of("command for epoch " + command.getEpoch() + " is newer than this connector's epoch "
                    + epoch + ": another incarnation of node " + nodeId + " runs");
        }
        AttemptRecord record = records.get(id);
        if (record != null && record.hasApplied(command.getType())) {
            return Optional.of("duplicate: " + command.getType() + " already applied to " + id + " (command "
                    + record.applied().get(command.getType()) + ")");
        }
        int newest = newestAttempt.getOrDefault(id.jobId(), -1);
        if (newest > id.attempt()) {
            return Optional.of("stale attempt: " + id + " is older than attempt " + newest + " known on node "
                    + nodeId);
        }
        if (command.getType() != NodeCommandType.START) {
            if (record == null) {
                return Optional.of("unknown attempt: " + id + " was never started on node " + nodeId);
            }
            if (!record.status().isActive()) {
                return Optional.of(id + " already ended (" + record.status() + ")");
            }
            if (record.status() == AttemptStatus.KILLING) {
                return Optional.of(id + " is being killed");
            }
        }
        return Optional.empty();
    }

    private void start(NodeCommand command, AttemptId id) {
        for (AttemptId older : new ArrayList<>(active.subSet(new AttemptId(id.jobId(), 0), true, id, false))) {
            LOG.warn("{} supersedes {} which still runs here: killing it", id, older);
            runner.kill(older);
        }
        AttemptRecord record = new AttemptRecord(id.jobId(), id.attempt(), epoch, command.getGpuIndices(), Map.of(),
                AttemptStatus.STARTING, clock.millis())
                .apply(NodeCommandType.START, command.getCommandId(), AttemptStatus.STARTING, clock.millis());
        save(record);
        runner.start(AttemptLaunch.from(command), this::onRunnerEvent);
    }

    private void transition(NodeCommand command, AttemptId id, AttemptStatus next) {
        save(records.get(id).apply(command.getType(), command.getCommandId(), next, clock.millis()));
        if (next == AttemptStatus.SUSPENDING) {
            runner.suspend(id);
        } else {
            runner.kill(id);
        }
    }

    private synchronized void onRunnerEvent(RunnerEvent event) {
        AttemptRecord record = records.get(event.attempt());
        if (record == null) {
            LOG.warn("event for an attempt this node does not know: {}", event);
            return;
        }
        if (!record.status().isActive()) {
            LOG.warn("event for {} which already ended ({}): {}", record.id(), record.status(), event);
            return;
        }
        JobEvent.Builder out = JobEvent.newBuilder()
                .setJobId(record.jobId())
                .setAttempt(record.attempt())
                .setNodeId(nodeId)
                .setEpoch(epoch)
                .setAt(event.at());
        AttemptRecord next = switch (event) {
            case RunnerEvent.Started s -> {
                out.setType(JobEventType.STARTED).setCommandId(record.applied().get(NodeCommandType.START));
                yield record.withStatus(record.status() == AttemptStatus.STARTING ? AttemptStatus.RUNNING
                        : record.status(), s.at().toEpochMilli());
            }
            case RunnerEvent.Completed c -> {
                out.setType(JobEventType.COMPLETED).setCommandId(record.applied().get(NodeCommandType.START));
                yield record.withStatus(AttemptStatus.COMPLETED, c.at().toEpochMilli());
            }
            case RunnerEvent.Failed f -> {
                out.setType(JobEventType.FAILED).setCommandId(record.answeredCommand()).setMessage(f.message())
                        .setExitCode(f.exitCode().isPresent() ? f.exitCode().getAsInt() : null);
                yield record.withStatus(AttemptStatus.FAILED, f.at().toEpochMilli());
            }
            case RunnerEvent.Suspended s -> {
                out.setType(JobEventType.SUSPENDED).setCommandId(record.answeredCommand())
                        .setCheckpointRef(s.checkpointRef());
                yield record.withStatus(AttemptStatus.SUSPENDED, s.at().toEpochMilli());
            }
            case RunnerEvent.Lost l -> {
                out.setType(JobEventType.LOST).setCommandId(record.answeredCommand()).setMessage(l.message());
                yield record.withStatus(AttemptStatus.LOST, l.at().toEpochMilli());
            }
        };
        // the event is published (journalled, when the sink is durable) before the record moves on: a crash between
        // the two repeats the event after the restart, never loses it
        sink.publish(out.build());
        save(next);
    }

    private void ignore(NodeCommand command, String reason) {
        LOG.info("ignoring {} {} for {}#{}: {}", command.getType(), command.getCommandId(), command.getJobId(),
                command.getAttempt(), reason);
        sink.publish(JobEvent.newBuilder()
                .setJobId(command.getJobId())
                .setAttempt(command.getAttempt())
                .setNodeId(nodeId)
                .setEpoch(epoch)
                .setType(JobEventType.COMMAND_IGNORED)
                .setCommandId(command.getCommandId())
                .setCommandType(command.getType())
                .setMessage(command.getType() + " ignored: " + reason)
                .setAt(Instant.now(clock))
                .build());
    }

    private AttemptRecord current(AttemptId id) {
        return records.get(id);
    }

    private void save(AttemptRecord record) {
        store.save(record);
        index(record);
    }

    private void index(AttemptRecord record) {
        records.put(record.id(), record);
        newestAttempt.merge(record.jobId(), record.attempt(), Math::max);
        if (record.status().isActive()) {
            active.add(record.id());
        } else {
            active.remove(record.id());
        }
    }
}
