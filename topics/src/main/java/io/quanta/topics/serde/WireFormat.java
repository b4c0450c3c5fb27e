package io.quanta.topics.serde;

import java.nio.ByteBuffer;

/** The Confluent wire format: magic byte 0, the 4-byte big-endian schema id, then the Avro binary encoding. */
public final class WireFormat {

    public static final byte MAGIC_BYTE = 0;
    public static final int HEADER_LENGTH = 5;

    private WireFormat() {
    }

    /** The 5-byte header for a schema id. */
    public static byte[] header(int schemaId) {
        return ByteBuffer.allocate(HEADER_LENGTH).put(MAGIC_BYTE).putInt(schemaId).array();
    }

    /**
     * The schema id of a framed record, after checking the header.
     *
     * @throws MalformedRecordException when the bytes are null, empty, too short or do not start with the magic byte
     */
    public static int schemaId(String topic, byte[] bytes) {
        if (bytes == null) {
            throw new MalformedRecordException(MalformedRecordException.Reason.NULL_BYTES, topic, null, null);
        }
        if (bytes.length == 0) {
            throw new MalformedRecordException(MalformedRecordException.Reason.EMPTY, topic, null, null);
        }
        if (bytes[0] != MAGIC_BYTE) {
            throw new MalformedRecordException(MalformedRecordException.Reason.BAD_MAGIC_BYTE, topic,
                    "found 0x" + String.format("%02x", bytes[0]), null);
        }
        if (bytes.length < HEADER_LENGTH) {
            throw new MalformedRecordException(MalformedRecordException.Reason.TOO_SHORT, topic,
                    bytes.length + " bytes", null);
        }
        return ByteBuffer.wrap(bytes, 1, 4).getInt();
    }
}
