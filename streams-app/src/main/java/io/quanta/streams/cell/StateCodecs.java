package io.quanta.streams.cell;

import io.quanta.core.model.JobState;
import io.quanta.streams.store.Binary;
import java.util.ArrayList;
import java.util.List;

/**
 * The binary encodings of the cell scheduler's state records in its stores and changelogs (job, node, assignment,
 * cell meta). Fields are written in a fixed order after a version byte; a new field means a new version that still
 * reads the old one.
 */
public final class StateCodecs {

    /** 2: adds drainPeers; version 1 (without it) is still read. */
    private static final int JOB_VERSION = 2;
    private static final int NODE_VERSION = 1;
    /** 2: adds commandedAtMs; version 1 (without it) is still read. */
    private static final int ASSIGNMENT_VERSION = 2;
    /** 2: adds droppedTelemetry; version 1 (without it) is still read. */
    private static final int META_VERSION = 2;

    private StateCodecs() {
    }

    public static byte[] encodeJob(JobRecord j) {
        return Binary.write(JOB_VERSION, out -> {
            out.writeString(j.jobId);
            out.writeString(j.cellId);
            out.writeString(j.tenant);
            out.writeInt(j.numGpus);
            out.writeString(j.gpuType);
            out.writeInt(j.priority);
            out.writeInt(j.maxRetries);
            out.writeString(j.modelName);
            out.writeDouble(j.tensorSizeSkew);
            out.writeLong(j.gpuMemoryMiB);
            out.writeNullableDouble(j.minibatchMillis);
            out.writeNullableLong(j.expectedDurationSeconds);
            out.writeStrings(j.command);
            out.writeStringMap(j.env);
            out.writeString(j.state.name());
            out.writeInt(j.attempt);
            out.writeInt(j.failures);
            out.writeLong(j.arrivalSeq);
            out.writeLong(j.arrivedAtMs);
            out.writeLong(j.submittedAtMs);
            out.writeDouble(j.attainedBase);
            out.writeLong(j.runStartedAtMs);
            out.writeDouble(j.lastRunSeconds);
            out.writeLong(j.queuedSinceMs);
            out.writeInt(j.queueLevel);
            out.writeStrings(j.sharingWith);
            out.writeDouble(j.throughput);
            out.writeDouble(j.baselineThroughput);
            out.writeLong(j.placementChangedAtMs);
            out.writeStrings(j.previousPlacement);
            out.writeString(j.checkpointRef);
            out.writeBoolean(j.cancelRequested);
            out.writeString(j.lastMessage);
            out.writeString(j.reason);
            out.writeLong(j.firstStartedAtMs);
            out.writeLong(j.lastStartedAtMs);
            out.writeLong(j.finishedAtMs);
            out.writeInt(j.preemptions);
            out.writeInt(j.migrations);
            out.writeInt(j.endedAttempt);
            out.writeStrings(j.pendingPeerEnds);
            out.writeString(j.sourceTopic);
            out.writeInt(j.sourcePartition);
            out.writeLong(j.sourceOffset);
            out.writeBoolean(j.drainPeers);
        });
    }

    public static JobRecord decodeJob(byte[] data) {
        return Binary.read(data, 1, JOB_VERSION, "job record", (version, in) -> {
            JobRecord j = new JobRecord();
            j.jobId = in.readString();
            j.cellId = in.readString();
            j.tenant = in.readString();
            j.numGpus = in.readInt();
            j.gpuType = in.readString();
            j.priority = in.readInt();
            j.maxRetries = in.readInt();
            j.modelName = in.readString();
            j.tensorSizeSkew = in.readDouble();
            j.gpuMemoryMiB = in.readLong();
            j.minibatchMillis = in.readNullableDouble();
            j.expectedDurationSeconds = in.readNullableLong();
            j.command = in.readStrings();
            j.env = in.readStringMap();
            j.state = JobState.valueOf(in.readString());
            j.attempt = in.readInt();
            j.failures = in.readInt();
            j.arrivalSeq = in.readLong();
            j.arrivedAtMs = in.readLong();
            j.submittedAtMs = in.readLong();
            j.attainedBase = in.readDouble();
            j.runStartedAtMs = in.readLong();
            j.lastRunSeconds = in.readDouble();
            j.queuedSinceMs = in.readLong();
            j.queueLevel = in.readInt();
            j.sharingWith = in.readStrings();
            j.throughput = in.readDouble();
            j.baselineThroughput = in.readDouble();
            j.placementChangedAtMs = in.readLong();
            j.previousPlacement = in.readStrings();
            j.checkpointRef = in.readString();
            j.cancelRequested = in.readBoolean();
            j.lastMessage = in.readString();
            j.reason = in.readString();
            j.firstStartedAtMs = in.readLong();
            j.lastStartedAtMs = in.readLong();
            j.finishedAtMs = in.readLong();
            j.preemptions = in.readInt();
            j.migrations = in.readInt();
            j.endedAttempt = in.readInt();
            j.pendingPeerEnds = in.readStrings();
            j.sourceTopic = in.readString();
            j.sourcePartition = in.readInt();
            j.sourceOffset = in.readLong();
            j.drainPeers = version >= 2 && in.readBoolean();
            return j;
        });
    }

    public static byte[] encodeNode(NodeRecord n) {
        return Binary.write(NODE_VERSION, out -> {
            out.writeString(n.nodeId);
            out.writeString(n.cellId);
            out.writeString(n.rack);
            out.writeLong(n.epoch);
            out.writeBoolean(n.alive);
            out.writeLong(n.lastSeenMs);
            out.writeLong(n.registeredAtMs);
            out.writeInt(n.gpus.size());
            for (NodeRecord.GpuRecord g : n.gpus) {
                out.writeInt(g.index());
                out.writeString(g.model());
                out.writeLong(g.memoryMiB());
                out.writeBoolean(g.healthy());
                out.writeString(g.error());
            }
        });
    }

    public static NodeRecord decodeNode(byte[] data) {
        return Binary.read(data, NODE_VERSION, "node record", in -> {
            NodeRecord n = new NodeRecord();
            n.nodeId = in.readString();
            n.cellId = in.readString();
            n.rack = in.readString();
            n.epoch = in.readLong();
            n.alive = in.readBoolean();
            n.lastSeenMs = in.readLong();
            n.registeredAtMs = in.readLong();
            int count = in.readInt();
            List<NodeRecord.GpuRecord> gpus = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                gpus.add(new NodeRecord.GpuRecord(in.readInt(), in.readString(), in.readLong(), in.readBoolean(),
                        in.readString()));
            }
            n.gpus = gpus;
            return n;
        });
    }

    public static byte[] encodeAssignment(AssignmentRecord a) {
        return Binary.write(ASSIGNMENT_VERSION, out -> {
            out.writeString(a.jobId);
            out.writeInt(a.attempt);
            out.writeStrings(a.gpus);
            out.writeStrings(a.reserved);
            out.writeStrings(a.startedNodes);
            out.writeLong(a.commandedAtMs);
        });
    }

    public static AssignmentRecord decodeAssignment(byte[] data) {
        return Binary.read(data, 1, ASSIGNMENT_VERSION, "assignment record", (version, in) -> {
            AssignmentRecord a = new AssignmentRecord();
            a.jobId = in.readString();
            a.attempt = in.readInt();
            a.gpus = in.readStrings();
            a.reserved = in.readStrings();
            a.startedNodes = in.readStrings();
            a.commandedAtMs = version >= 2 ? in.readLong() : -1;
            return a;
        });
    }

    public static byte[] encodeMeta(CellMeta m) {
        return Binary.write(META_VERSION, out -> {
            out.writeString(m.cellId);
            out.writeLong(m.seq);
            out.writeString(m.configHash);
            out.writeLong(m.arrivalSeq);
            out.writeLong(m.timeMs);
            out.writeLong(m.heartbeatTimeMs);
            out.writeLong(m.lastDecisionOffset);
            out.writeBoolean(m.dirty);
            out.writeLong(m.policyWakeUpMs);
            out.writeLong(m.livenessDeadlineMs);
            out.writeLong(m.nextTickMs);
            out.writeLong(m.passes);
            out.writeLong(m.droppedTelemetry);
        });
    }

    public static CellMeta decodeMeta(byte[] data) {
        return Binary.read(data, 1, META_VERSION, "cell meta", (version, in) -> {
            CellMeta m = new CellMeta(in.readString());
            m.seq = in.readLong();
            m.configHash = in.readString();
            m.arrivalSeq = in.readLong();
            m.timeMs = in.readLong();
            m.heartbeatTimeMs = in.readLong();
            m.lastDecisionOffset = in.readLong();
            m.dirty = in.readBoolean();
            m.policyWakeUpMs = in.readLong();
            m.livenessDeadlineMs = in.readLong();
            m.nextTickMs = in.readLong();
            m.passes = in.readLong();
            m.droppedTelemetry = version >= 2 ? in.readLong() : 0;
            return m;
        });
    }
}
