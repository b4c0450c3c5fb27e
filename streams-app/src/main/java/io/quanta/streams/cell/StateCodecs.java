package io.quanta.streams.cell;

import io.quanta.core.model.GpuId;
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
import java.util.Map;
import java.util.function.Function;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;

/**
 * The encodings of the cell scheduler's state records in its stores and changelogs (job, node, assignment, cell
 * meta). Each record's fields are defined by an Avro schema beside the topic schemas ({@code schemas/.../state/}),
 * which passes the same BACKWARD compatibility test; the bytes are Avro's single-object encoding (a two-byte marker,
 * the schema's fingerprint, the Avro binary), so a reader resolves state written with an older schema version (a
 * rolling upgrade reads the old changelog: every version the scheduler has written is kept in the schemas module's
 * {@code state/history} and given to the decoders, {@link StateSchemaHistory}). Fields are copied by name between a
 * record and its schema ({@link StateFields}), which refuses a record field missing from the schema and the other
 * way round. State in the hand-ordered format of release 0.1.0 is still read ({@link LegacyStateCodecs}).
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

    static {
        StateSchemaHistory.addTo(JOB_DECODER, StoredJob.getClassSchema());
        StateSchemaHistory.addTo(NODE_DECODER, StoredNode.getClassSchema());
        StateSchemaHistory.addTo(ASSIGNMENT_DECODER, StoredAssignment.getClassSchema());
        StateSchemaHistory.addTo(META_DECODER, StoredCellMeta.getClassSchema());
    }

    private StateCodecs() {
    }

    private static final StateFields<JobRecord, StoredJob> JOB = StateFields.ofRecord(JobRecord.class,
            StoredJob.getClassSchema(), StoredJob::new, Map.of());
    private static final StateFields<NodeRecord, StoredNode> NODE = StateFields.ofRecord(NodeRecord.class,
            StoredNode.getClassSchema(), StoredNode::new, Map.of("gpus", new StateFields.Conversion(
                    v -> gpusToStored(v), v -> gpusFromStored(v))));
    /** GPUs are stored as their {@code node/index} names. */
    private static final StateFields.Conversion GPU_NAMES = new StateFields.Conversion(
            v -> ((List<?>) v).stream().map(Object::toString).toList(),
            v -> ((List<?>) v).stream().map(name -> GpuId.parse(name.toString())).toList());
    private static final StateFields<AssignmentRecord, StoredAssignment> ASSIGNMENT = StateFields.ofRecord(
            AssignmentRecord.class, StoredAssignment.getClassSchema(), StoredAssignment::new,
            Map.of("gpus", GPU_NAMES, "reserved", GPU_NAMES));
    private static final StateFields<CellMeta, StoredCellMeta> META = StateFields.ofRecord(CellMeta.class,
            StoredCellMeta.getClassSchema(), StoredCellMeta::new, Map.of());

    public static byte[] encodeJob(JobRecord j) {
        return bytes(JOB_ENCODER, JOB.toStored(j));
    }

    public static JobRecord decodeJob(byte[] data) {
        return decode(data, JOB_DECODER, "job record", LegacyStateCodecs::decodeJob, JOB::fromStored);
    }

    public static byte[] encodeNode(NodeRecord n) {
        return bytes(NODE_ENCODER, NODE.toStored(n));
    }

    public static NodeRecord decodeNode(byte[] data) {
        return decode(data, NODE_DECODER, "node record", LegacyStateCodecs::decodeNode, NODE::fromStored);
    }

    public static byte[] encodeAssignment(AssignmentRecord a) {
        return bytes(ASSIGNMENT_ENCODER, ASSIGNMENT.toStored(a));
    }

    public static AssignmentRecord decodeAssignment(byte[] data) {
        return decode(data, ASSIGNMENT_DECODER, "assignment record", LegacyStateCodecs::decodeAssignment,
                ASSIGNMENT::fromStored);
    }

    public static byte[] encodeMeta(CellMeta m) {
        return bytes(META_ENCODER, META.toStored(m));
    }

    public static CellMeta decodeMeta(byte[] data) {
        return decode(data, META_DECODER, "cell meta", LegacyStateCodecs::decodeMeta, META::fromStored);
    }

    @SuppressWarnings("unchecked")
    private static Object gpusToStored(Object gpus) {
        List<StoredGpu> out = new ArrayList<>();
        for (NodeRecord.GpuRecord g : (List<NodeRecord.GpuRecord>) gpus) {
            out.add(new StoredGpu(g.index(), g.model(), g.memoryMiB(), g.healthy(), g.error()));
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Object gpusFromStored(Object stored) {
        return ((List<StoredGpu>) stored).stream().map(g -> new NodeRecord.GpuRecord(g.getIndex(), g.getModel(),
                g.getMemoryMiB(), g.getHealthy(), g.getError())).toList();
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
        try {
            // decoding and mapping both: a well-formed Avro record may still hold values the state refuses (a GPU
            // name that is no node/index), and the reader should learn which record, not a reflection error
            return map.apply(decoder.decode(data));
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("malformed " + what + ": " + e.getMessage(), e);
        }
    }
}
