package io.quanta.streams.cell;

import io.quanta.core.model.GpuId;
import io.quanta.schemas.DecisionType;
import io.quanta.schemas.GpuRef;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.schemas.SourceRef;
import io.quanta.streams.deadletter.DeadLetters;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One unit of work of a cell scheduler (the handling of one inbox record): the cell, the stream time {@code now},
 * and the outputs. Numbers decisions (writing the CONFIG record first when the configuration changed), stamps them
 * with the inbox offset range from the record after the one that produced the cell's previous decision to this
 * record (the range may hold other cells' records when cells share a partition: filter by key), and emits one
 * status per changed job when the unit ends.
 */
final class Step {

    final CellState cell;
    /** The cell's stream time (the largest timestamp of its inbox records). */
    final long now;
    /** The timestamp of the record being handled (may be older than {@link #now}). */
    final long recordTime;
    /** The inbox offset of the record being handled, -1 when unknown. */
    private final long offset;
    private final long rangeFrom;
    private final CellOutput out;
    private final ConfigFingerprint config;
    private final Set<String> changedStatus = new LinkedHashSet<>();
    private boolean rangeUsed;

    Step(CellState cell, long now, long recordTime, long offset, CellOutput out, ConfigFingerprint config) {
        this.cell = cell;
        this.now = now;
        this.recordTime = recordTime;
        this.offset = offset;
        this.rangeFrom = offset < 0 ? -1 : cell.meta().lastDecisionOffset() + 1;
        this.out = out;
        this.config = config;
    }

    Instant instant() {
        return Instant.ofEpochMilli(now);
    }

    /** A decision record of this cell, to be completed and passed to {@link #write}. */
    SchedulingDecision.Builder decision(DecisionType type, String jobId, int attempt, String reason) {
        return SchedulingDecision.newBuilder().setType(type).setJobId(jobId).setAttempt(attempt).setReason(reason);
    }

    /** Numbers, stamps and emits a decision (after a CONFIG record if the configuration in force is new). */
    void write(SchedulingDecision.Builder decision) {
        recordConfig();
        emit(decision);
    }

    /**
     * Writes a CONFIG record when the configuration in force differs from the one the cell recorded last. Called
     * first thing for every inbox record, so the CONFIG record marks the first record handled under a new
     * configuration (its {@code inboxOffsetTo}): audit replay switches configuration exactly there.
     */
    void recordConfig() {
        if (!config.hash().equals(cell.meta().configHash())) {
            String previous = cell.meta().configHash();
            cell.changeMeta(m -> m.configHash = config.hash());
            emit(SchedulingDecision.newBuilder().setType(DecisionType.CONFIG)
                    .setReason("configuration in force: policy " + config.policy() + ", hash " + config.hash()
                            + (previous.isEmpty() ? "" : " (was " + previous + ")"))
                    .setDetails(new TreeMap<>(config.entries())));
        }
    }

    private void emit(SchedulingDecision.Builder decision) {
        cell.changeMeta(m -> m.seq++);
        out.decision(decision.setCellId(cell.cellId).setSeq(cell.meta().seq()).setPolicy(config.policy())
                .setConfigHash(config.hash()).setStreamTime(instant()).setInboxOffsetFrom(rangeFrom)
                .setInboxOffsetTo(offset).build());
        rangeUsed = true;
    }

    void command(NodeCommand command) {
        out.command(command);
    }

    /** Marks the job's status as changed; emitted once when the step ends, for the job as it is then. */
    void statusChanged(String jobId) {
        changedStatus.add(jobId);
    }

    /** Records an input the cell ignored: an IGNORED_INPUT decision, and a dead letter when {@code deadLetter}. */
    void ignored(String jobId, int attempt, SourceRef source, String key, String reason, boolean deadLetter) {
        write(decision(DecisionType.IGNORED_INPUT, jobId, attempt, reason));
        if (deadLetter) {
            out.deadLetter(key, DeadLetters.unusable(source, key, reason, instant()));
        }
    }

    /** Emits a dead letter for a job's original submission. */
    void deadLetterSubmission(JobRecord job, String reason) {
        SourceRef source = new SourceRef(job.sourceTopic(), job.sourcePartition(), job.sourceOffset());
        out.deadLetter(job.jobId(), DeadLetters.unusable(source, job.jobId(), reason, instant()));
    }

    /** Emits the statuses of the changed jobs; the next decision's offset range starts after this record. */
    void finish() {
        for (String jobId : changedStatus) {
            out.status(Statuses.of(cell.latest(jobId), cell.assignments.get(jobId), now));
        }
        if (rangeUsed && offset >= 0) {
            cell.changeMeta(m -> m.lastDecisionOffset = offset);
        }
    }

    /** The GPUs as {@code node/index}, comma-separated. */
    static String names(List<GpuId> gpus) {
        StringBuilder out = new StringBuilder();
        for (GpuId gpu : gpus) {
            out.append(out.isEmpty() ? "" : ",").append(gpu);
        }
        return out.toString();
    }

    static List<GpuRef> refs(List<GpuId> gpus) {
        return gpus.stream().map(Statuses::ref).toList();
    }

    static SortedMap<String, String> details(Object... keysAndValues) {
        SortedMap<String, String> map = new TreeMap<>();
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
            map.put(String.valueOf(keysAndValues[i]), String.valueOf(keysAndValues[i + 1]));
        }
        return map;
    }
}
