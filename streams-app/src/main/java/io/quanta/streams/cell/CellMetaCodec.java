package io.quanta.streams.cell;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Compact binary encoding of {@link CellMeta} (version byte, then the fields in a fixed order). The meta is written
 * after every inbox record (stream time, offsets), so it is kept small and cheap to encode.
 */
public final class CellMetaCodec {

    private static final int VERSION = 1;

    private CellMetaCodec() {
    }

    public static byte[] encode(CellMeta meta) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(96);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeUTF(meta.cellId);
            out.writeLong(meta.seq);
            out.writeUTF(meta.configHash);
            out.writeLong(meta.arrivalSeq);
            out.writeLong(meta.timeMs);
            out.writeLong(meta.heartbeatTimeMs);
            out.writeLong(meta.lastDecisionOffset);
            out.writeBoolean(meta.dirty);
            out.writeLong(meta.policyWakeUpMs);
            out.writeLong(meta.livenessDeadlineMs);
            out.writeLong(meta.nextTickMs);
            out.writeLong(meta.passes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    public static CellMeta decode(byte[] data) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            int version = in.readUnsignedByte();
            if (version != VERSION) {
                throw new IllegalArgumentException("unknown cell meta format version " + version);
            }
            CellMeta meta = new CellMeta(in.readUTF());
            meta.seq = in.readLong();
            meta.configHash = in.readUTF();
            meta.arrivalSeq = in.readLong();
            meta.timeMs = in.readLong();
            meta.heartbeatTimeMs = in.readLong();
            meta.lastDecisionOffset = in.readLong();
            meta.dirty = in.readBoolean();
            meta.policyWakeUpMs = in.readLong();
            meta.livenessDeadlineMs = in.readLong();
            meta.nextTickMs = in.readLong();
            meta.passes = in.readLong();
            return meta;
        } catch (IOException e) {
            throw new IllegalArgumentException("malformed cell meta: " + e.getMessage(), e);
        }
    }
}
