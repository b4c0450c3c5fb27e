package io.quanta.streams.cell;

import io.quanta.core.model.GpuId;
import io.quanta.core.model.JobState;
import io.quanta.streams.store.Binary;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the hand-ordered binary state of release 0.1.0 (a version byte, then the fields in a fixed order), which
 * {@link StateCodecs} replaced by schema-defined Avro: kept so that a rolling upgrade reads the old stores and
 * changelogs. Read-only: nothing writes this format any more; remove it once no deployment holds such state.
 */
final class LegacyStateCodecs {

    /** Job records: 1 without drainPeers, 2 with it. */
    private static final int JOB_VERSION = 2;
    private static final int NODE_VERSION = 1;
    /** Assignments: 1 without commandedAtMs, 2 with it. */
    private static final int ASSIGNMENT_VERSION = 2;
    /** Cell meta: 1 without droppedTelemetry, 2 with it. */
    private static final int META_VERSION = 2;

    private LegacyStateCodecs() {
    }


    static JobRecord decodeJob(byte[] data) {
        return Binary.read(data, 1, JOB_VERSION, "job record", (version, in) -> {
            JobRecord.Draft j = new JobRecord.Draft();
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
            return j.build();
        });
    }


    static NodeRecord decodeNode(byte[] data) {
        return Binary.read(data, NODE_VERSION, "node record", in -> {
            String nodeId = in.readString();
            String cellId = in.readString();
            String rack = in.readString();
            long epoch = in.readLong();
            boolean alive = in.readBoolean();
            long lastSeenMs = in.readLong();
            long registeredAtMs = in.readLong();
            int count = in.readInt();
            List<NodeRecord.GpuRecord> gpus = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                gpus.add(new NodeRecord.GpuRecord(in.readInt(), in.readString(), in.readLong(), in.readBoolean(),
                        in.readString()));
            }
            return new NodeRecord(nodeId, cellId, rack, epoch, alive, lastSeenMs, registeredAtMs, gpus);
        });
    }


    static AssignmentRecord decodeAssignment(byte[] data) {
        return Binary.read(data, 1, ASSIGNMENT_VERSION, "assignment record", (version, in) -> {
            String jobId = in.readString();
            int attempt = in.readInt();
            List<GpuId> gpus = in.readStrings().stream().map(GpuId::parse).toList();
            List<GpuId> reserved = in.readStrings().stream().map(GpuId::parse).toList();
            List<String> startedNodes = in.readStrings();
            long commandedAtMs = version >= 2 ? in.readLong() : -1;
            return new AssignmentRecord(jobId, attempt, gpus, reserved, startedNodes, commandedAtMs);
        });
    }


    static CellMeta decodeMeta(byte[] data) {
        return Binary.read(data, 1, META_VERSION, "cell meta", (version, in) -> {
            return new CellMeta(in.readString(), in.readLong(), in.readString(), in.readLong(), in.readLong(),
                    in.readLong(), in.readLong(), in.readBoolean(), in.readLong(), in.readLong(), in.readLong(),
                    in.readLong(), version >= 2 ? in.readLong() : 0);
        });
    }
}
