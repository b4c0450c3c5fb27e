package io.quanta.streams.cell;

import io.quanta.core.model.GpuId;
import io.quanta.schemas.GpuRef;
import io.quanta.schemas.ModelProfile;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeCommandType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Builds the commands a cell sends to node connectors. Command ids are deterministic,
 * {@code <jobId>/<attempt>/<TYPE>/<nodeId>}, so a replay produces the same ids and a connector can deduplicate.
 */
final class Commands {

    private Commands() {
    }

    static String commandId(String jobId, int attempt, NodeCommandType type, String nodeId) {
        return jobId + "/" + attempt + "/" + type + "/" + nodeId;
    }

    /**
     * The type of the command an event answers: the event's {@code commandType}, or for an event of a connector
     * before that field (an older log being replayed), the type its command id names.
     */
    static NodeCommandType typeAnswered(JobEvent event) {
        return event.getCommandType() != null ? event.getCommandType() : typeNamedBy(event.getCommandId());
    }

    /** The type a command id of ours names ({@link #commandId}), or null when the id is not one of ours. */
    private static NodeCommandType typeNamedBy(String commandId) {
        if (commandId == null) {
            return null;
        }
        for (NodeCommandType type : NodeCommandType.values()) {
            if (commandId.contains("/" + type + "/")) {
                return type;
            }
        }
        return null;
    }

    /** START of the job's current attempt on one node of its placement. */
    static NodeCommand start(JobRecord job, AssignmentRecord assignment, NodeRecord node, long nowMs) {
        List<Integer> indices = new ArrayList<>();
        List<GpuRef> placement = new ArrayList<>();
        for (GpuId gpu : assignment.placement()) {
            placement.add(new GpuRef(gpu.nodeId(), gpu.index()));
            if (gpu.nodeId().equals(node.nodeId())) {
                indices.add(gpu.index());
            }
        }
        return NodeCommand.newBuilder()
                .setCommandId(commandId(job.jobId(), assignment.attempt(), NodeCommandType.START, node.nodeId()))
                .setNodeId(node.nodeId())
                .setEpoch(node.epoch())
                .setJobId(job.jobId())
                .setAttempt(assignment.attempt())
                .setType(NodeCommandType.START)
                .setGpuIndices(indices)
                .setCommand(List.copyOf(job.command()))
                .setEnv(new TreeMap<>(job.env()))
                .setCheckpointRef(job.checkpointRef())
                .setProfile(profile(job))
                .setExpectedDurationSeconds(job.expectedDurationSeconds())
                .setPlacement(placement)
                .setSharingWith(List.copyOf(job.sharingWith()))
                .setIssuedAt(Instant.ofEpochMilli(nowMs))
                .build();
    }

    /** SUSPEND or KILL of an attempt on one node. */
    static NodeCommand stop(NodeCommandType type, String jobId, int attempt, NodeRecord node, long nowMs) {
        return NodeCommand.newBuilder()
                .setCommandId(commandId(jobId, attempt, type, node.nodeId()))
                .setNodeId(node.nodeId())
                .setEpoch(node.epoch())
                .setJobId(jobId)
                .setAttempt(attempt)
                .setType(type)
                .setIssuedAt(Instant.ofEpochMilli(nowMs))
                .build();
    }

    static ModelProfile profile(JobRecord job) {
        return ModelProfile.newBuilder()
                .setModelName(job.modelName())
                .setTensorSizeSkew(job.tensorSizeSkew())
                .setGpuMemoryMiB((int) job.gpuMemoryMiB())
                .setMinibatchMillis(job.minibatchMillis())
                .build();
    }
}
