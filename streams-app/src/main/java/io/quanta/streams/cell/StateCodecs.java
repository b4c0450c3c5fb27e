package io.quanta.streams.cell;

import io.quanta.core.model.JobState;
import io.quanta.schemas.state.StoredAssignment;
import io.quanta.schemas.state.StoredCellMeta;
import io.quanta.schemas.state.StoredGpu;
import io.quanta.schemas.state.StoredJob;
import io.quanta.schemas.state.StoredNode;
import io.quanta.topics.serde.AvroTrust;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;

/**
 * The encodings of the cell scheduler's state records in its stores and changelogs (job, node, assignment, cell
 * meta). Each record's fields are defined by an Avro schema beside the topic schemas ({@code schemas/.../state/}),
 * which passes the same BACKWARD compatibility test; the bytes are Avro's single-object encoding (a two-byte marker,
 * the schema's fingerprint, the Avro binary), so a reader resolves state written with an older schema version (a
 * rolling upgrade reads the old changelog; add the old schema to the decoder) and a writer cannot leave out a field:
 * the generated builders refuse to build without every field that has no default. State in the hand-ordered format
 * of release 0.1.0 is still read ({@link LegacyStateCodecs}).
 */
public final class StateCodecs {

    /** First byte of Avro's single-object encoding; the legacy format started with its version, 1 or 2. */
    private static final byte SINGLE_OBJECT_MARKER = (byte) 0xC3;

    static {
        AvroTrust.trustQuantaSchemas();
    }

    private static final BinaryMessageEncoder<StoredJob> JOB_ENCODER = StoredJob.getEncoder();
    private static final BinaryMessageDecoder<StoredJob> JOB_DECODER = StoredJob.getDecoder();
    private static final BinaryMessageEncoder<StoredNode> NODE_ENCODER = StoredNode.getEncoder();
    private static final BinaryMessageDecoder<StoredNode> NODE_DECODER = StoredNode.getDecoder();
    private static final BinaryMessageEncoder<StoredAssignment> ASSIGNMENT_ENCODER = StoredAssignment.getEncoder();
    private static final BinaryMessageDecoder<StoredAssignment> ASSIGNMENT_DECODER = StoredAssignment.getDecoder();
    private static final BinaryMessageEncoder<StoredCellMeta> META_ENCODER = StoredCellMeta.getEncoder();
    private static final BinaryMessageDecoder<StoredCellMeta> META_DECODER = StoredCellMeta.getDecoder();

    private StateCodecs() {
    }

    public static byte[] encodeJob(JobRecord j) {
        return bytes(JOB_ENCODER, StoredJob.newBuilder()
                .setJobId(j.jobId)
                .setCellId(j.cellId)
                .setTenant(j.tenant)
                .setNumGpus(j.numGpus)
                .setGpuType(j.gpuType)
                .setPriority(j.priority)
                .setMaxRetries(j.maxRetries)
                .setModelName(j.modelName)
                .setTensorSizeSkew(j.tensorSizeSkew)
                .setGpuMemoryMiB(j.gpuMemoryMiB)
                .setMinibatchMillis(j.minibatchMillis)
                .setExpectedDurationSeconds(j.expectedDurationSeconds)
                .setCommand(j.command)
                .setEnv(j.env)
                .setState(j.state.name())
                .setAttempt(j.attempt)
                .setFailures(j.failures)
                .setArrivalSeq(j.arrivalSeq)
                .setArrivedAtMs(j.arrivedAtMs)
                .setSubmittedAtMs(j.submittedAtMs)
                .setAttainedBase(j.attainedBase)
                .setRunStartedAtMs(j.runStartedAtMs)
                .setLastRunSeconds(j.lastRunSeconds)
                .setQueuedSinceMs(j.queuedSinceMs)
                .setQueueLevel(j.queueLevel)
                .setSharingWith(j.sharingWith)
                .setThroughput(j.throughput)
                .setBaselineThroughput(j.baselineThroughput)
                .setPlacementChangedAtMs(j.placementChangedAtMs)
                .setPreviousPlacement(j.previousPlacement)
                .setCheckpointRef(j.checkpointRef)
                .setCancelRequested(j.cancelRequested)
                .setLastMessage(j.lastMessage)
                .setReason(j.reason)
                .setFirstStartedAtMs(j.firstStartedAtMs)
                .setLastStartedAtMs(j.lastStartedAtMs)
                .setFinishedAtMs(j.finishedAtMs)
                .setPreemptions(j.preemptions)
                .setMigrations(j.migrations)
                .setEndedAttempt(j.endedAttempt)
                .setPendingPeerEnds(j.pendingPeerEnds)
                .setDrainPeers(j.drainPeers)
                .setSourceTopic(j.sourceTopic)
                .setSourcePartition(j.sourcePartition)
                .setSourceOffset(j.sourceOffset)
                .build());
    }

    public static JobRecord decodeJob(byte[] data) {
        return decode(data, JOB_DECODER, "job record", LegacyStateCodecs::decodeJob, s -> {
            JobRecord j = new JobRecord();
            j.jobId = s.getJobId();
            j.cellId = s.getCellId();
            j.tenant = s.getTenant();
            j.numGpus = s.getNumGpus();
            j.gpuType = s.getGpuType();
            j.priority = s.getPriority();
            j.maxRetries = s.getMaxRetries();
            j.modelName = s.getModelName();
            j.tensorSizeSkew = s.getTensorSizeSkew();
            j.gpuMemoryMiB = s.getGpuMemoryMiB();
            j.minibatchMillis = s.getMinibatchMillis();
            j.expectedDurationSeconds = s.getExpectedDurationSeconds();
            j.command = new ArrayList<>(s.getCommand());
            j.env = new TreeMap<>(s.getEnv());
            j.state = JobState.valueOf(s.getState());
            j.attempt = s.getAttempt();
            j.failures = s.getFailures();
            j.arrivalSeq = s.getArrivalSeq();
            j.arrivedAtMs = s.getArrivedAtMs();
            j.submittedAtMs = s.getSubmittedAtMs();
            j.attainedBase = s.getAttainedBase();
            j.runStartedAtMs = s.getRunStartedAtMs();
            j.lastRunSeconds = s.getLastRunSeconds();
            j.queuedSinceMs = s.getQueuedSinceMs();
            j.queueLevel = s.getQueueLevel();
            j.sharingWith = new ArrayList<>(s.getSharingWith());
            j.throughput = s.getThroughput();
            j.baselineThroughput = s.getBaselineThroughput();
            j.placementChangedAtMs = s.getPlacementChangedAtMs();
            j.previousPlacement = new ArrayList<>(s.getPreviousPlacement());
            j.checkpointRef = s.getCheckpointRef();
            j.cancelRequested = s.getCancelRequested();
            j.lastMessage = s.getLastMessage();
            j.reason = s.getReason();
            j.firstStartedAtMs = s.getFirstStartedAtMs();
            j.lastStartedAtMs = s.getLastStartedAtMs();
            j.finishedAtMs = s.getFinishedAtMs();
            j.preemptions = s.getPreemptions();
            j.migrations = s.getMigrations();
            j.endedAttempt = s.getEndedAttempt();
            j.pendingPeerEnds = new ArrayList<>(s.getPendingPeerEnds());
            j.drainPeers = s.getDrainPeers();
            j.sourceTopic = s.getSourceTopic();
            j.sourcePartition = s.getSourcePartition();
            j.sourceOffset = s.getSourceOffset();
            return j;
        });
    }

    public static byte[] encodeNode(NodeRecord n) {
        List<StoredGpu> gpus = new ArrayList<>(n.gpus.size());
        for (NodeRecord.GpuRecord g : n.gpus) {
            gpus.add(StoredGpu.newBuilder().setIndex(g.index()).setModel(g.model()).setMemoryMiB(g.memoryMiB())
                    .setHealthy(g.healthy()).setError(g.error()).build());
        }
        return bytes(NODE_ENCODER, StoredNode.newBuilder()
                .setNodeId(n.nodeId)
                .setCellId(n.cellId)
                .setRack(n.rack)
                .setEpoch(n.epoch)
                .setAlive(n.alive)
                .setLastSeenMs(n.lastSeenMs)
                .setRegisteredAtMs(n.registeredAtMs)
                .setGpus(gpus)
                .build());
    }

    public static NodeRecord decodeNode(byte[] data) {
        return decode(data, NODE_DECODER, "node record", LegacyStateCodecs::decodeNode, s -> {
            NodeRecord n = new NodeRecord();
            n.nodeId = s.getNodeId();
            n.cellId = s.getCellId();
            n.rack = s.getRack();
            n.epoch = s.getEpoch();
            n.alive = s.getAlive();
            n.lastSeenMs = s.getLastSeenMs();
            n.registeredAtMs = s.getRegisteredAtMs();
            n.gpus = s.getGpus().stream().map(g -> new NodeRecord.GpuRecord(g.getIndex(), g.getModel(),
                    g.getMemoryMiB(), g.getHealthy(), g.getError())).toList();
            return n;
        });
    }

    public static byte[] encodeAssignment(AssignmentRecord a) {
        return bytes(ASSIGNMENT_ENCODER, StoredAssignment.newBuilder()
                .setJobId(a.jobId)
                .setAttempt(a.attempt)
                .setGpus(a.gpus)
                .setReserved(a.reserved)
                .setStartedNodes(a.startedNodes)
                .setCommandedAtMs(a.commandedAtMs)
                .build());
    }

    public static AssignmentRecord decodeAssignment(byte[] data) {
        return decode(data, ASSIGNMENT_DECODER, "assignment record", LegacyStateCodecs::decodeAssignment, s -> {
            AssignmentRecord a = new AssignmentRecord();
            a.jobId = s.getJobId();
            a.attempt = s.getAttempt();
            a.gpus = new ArrayList<>(s.getGpus());
            a.reserved = new ArrayList<>(s.getReserved());
            a.startedNodes = new ArrayList<>(s.getStartedNodes());
            a.commandedAtMs = s.getCommandedAtMs();
            return a;
        });
    }

    public static byte[] encodeMeta(CellMeta m) {
        return bytes(META_ENCODER, StoredCellMeta.newBuilder()
                .setCellId(m.cellId)
                .setSeq(m.seq)
                .setConfigHash(m.configHash)
                .setArrivalSeq(m.arrivalSeq)
                .setTimeMs(m.timeMs)
                .setHeartbeatTimeMs(m.heartbeatTimeMs)
                .setLastDecisionOffset(m.lastDecisionOffset)
                .setDirty(m.dirty)
                .setPolicyWakeUpMs(m.policyWakeUpMs)
                .setLivenessDeadlineMs(m.livenessDeadlineMs)
                .setNextTickMs(m.nextTickMs)
                .setPasses(m.passes)
                .setDroppedTelemetry(m.droppedTelemetry)
                .build());
    }

    public static CellMeta decodeMeta(byte[] data) {
        return decode(data, META_DECODER, "cell meta", LegacyStateCodecs::decodeMeta, s -> {
            CellMeta m = new CellMeta(s.getCellId());
            m.seq = s.getSeq();
            m.configHash = s.getConfigHash();
            m.arrivalSeq = s.getArrivalSeq();
            m.timeMs = s.getTimeMs();
            m.heartbeatTimeMs = s.getHeartbeatTimeMs();
            m.lastDecisionOffset = s.getLastDecisionOffset();
            m.dirty = s.getDirty();
            m.policyWakeUpMs = s.getPolicyWakeUpMs();
            m.livenessDeadlineMs = s.getLivenessDeadlineMs();
            m.nextTickMs = s.getNextTickMs();
            m.passes = s.getPasses();
            m.droppedTelemetry = s.getDroppedTelemetry();
            return m;
        });
    }

    private static <S> byte[] bytes(BinaryMessageEncoder<S> encoder, S stored) {
        try {
            ByteBuffer buffer = encoder.encode(stored);
            byte[] out = new byte[buffer.remaining()];
            buffer.get(out);
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode " + stored.getClass().getSimpleName(), e);
        }
    }

    private static <S, T> T decode(byte[] data, BinaryMessageDecoder<S> decoder, String what,
                                   Function<byte[], T> legacy, Function<S, T> map) {
        if (data.length == 0 || data[0] != SINGLE_OBJECT_MARKER) {
            return legacy.apply(data);
        }
        S stored;
        try {
            stored = decoder.decode(data);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("malformed " + what + ": " + e.getMessage(), e);
        }
        return map.apply(stored);
    }
}
