package io.quanta.node.command;

import io.quanta.node.runner.AttemptId;
import io.quanta.schemas.NodeCommandType;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the node remembers about one attempt: the commands applied to it (by type, with their ids), its GPUs and its
 * status. Persisted as one small JSON file per attempt so that a restarted connector knows what runs and never applies
 * a command twice.
 *
 * @param jobId the job
 * @param attempt the attempt number
 * @param epoch the connector epoch that started it
 * @param gpuIndices the local GPUs it holds
 * @param applied the id of each command type applied to it
 * @param status where it is
 * @param updatedAtMillis when the record last changed (epoch milliseconds)
 */
public record AttemptRecord(String jobId, int attempt, long epoch, List<Integer> gpuIndices,
                            Map<NodeCommandType, String> applied, AttemptStatus status, long updatedAtMillis) {

    public AttemptRecord {
        Objects.requireNonNull(jobId, "jobId");
        gpuIndices = List.copyOf(gpuIndices);
        applied = applied.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(applied));
        Objects.requireNonNull(status, "status");
    }

    /** The attempt's id. */
    public AttemptId id() {
        return new AttemptId(jobId, attempt);
    }

    /** Whether a command of this type was applied. */
    public boolean hasApplied(NodeCommandType type) {
        return applied.containsKey(type);
    }

    /** The same record after applying a command. */
    public AttemptRecord apply(NodeCommandType type, String commandId, AttemptStatus newStatus, long atMillis) {
        Map<NodeCommandType, String> next = new EnumMap<>(NodeCommandType.class);
        next.putAll(applied);
        next.put(type, commandId);
        return new AttemptRecord(jobId, attempt, epoch, gpuIndices, next, newStatus, atMillis);
    }

    /** The same record with another status. */
    public AttemptRecord withStatus(AttemptStatus newStatus, long atMillis) {
        return new AttemptRecord(jobId, attempt, epoch, gpuIndices, applied, newStatus, atMillis);
    }

    /**
     * The command an end of the attempt answers: the KILL if one was applied, else the SUSPEND, else the START.
     */
    public String answeredCommand() {
        if (applied.containsKey(NodeCommandType.KILL)) {
            return applied.get(NodeCommandType.KILL);
        }
        if (applied.containsKey(NodeCommandType.SUSPEND)) {
            return applied.get(NodeCommandType.SUSPEND);
        }
        return applied.get(NodeCommandType.START);
    }
}
