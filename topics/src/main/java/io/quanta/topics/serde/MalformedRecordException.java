package io.quanta.topics.serde;

import org.apache.kafka.common.errors.SerializationException;

/**
 * Bytes that are not a readable Confluent-format Avro record (empty, wrong magic byte, unknown schema id, truncated or
 * corrupt payload, incompatible writer schema). The record itself is bad, so retrying cannot help: the streams app
 * routes it to the dead-letter topic with {@link #reason()} and {@link #getMessage()}. A registry that cannot be
 * reached is NOT reported with this type.
 */
public final class MalformedRecordException extends SerializationException {

    private static final long serialVersionUID = 1L;

    /** Why the bytes could not be read. */
    public enum Reason {
        NULL_BYTES("no bytes (null)"),
        EMPTY("empty byte array"),
        TOO_SHORT("shorter than the 5-byte header (magic byte + schema id)"),
        BAD_MAGIC_BYTE("first byte is not the Confluent magic byte 0"),
        UNKNOWN_SCHEMA_ID("schema id unknown to the registry"),
        INCOMPATIBLE_SCHEMA("writer schema cannot be read with the reader schema"),
        UNREADABLE_PAYLOAD("Avro payload truncated or corrupt"),
        TRAILING_BYTES("bytes left over after the Avro record");

        private final String description;

        Reason(String description) {
            this.description = description;
        }

        public String description() {
            return description;
        }
    }

    private final Reason reason;
    private final String topic;

    public MalformedRecordException(Reason reason, String topic, String detail, Throwable cause) {
        super("Malformed record on topic '" + topic + "': " + reason.description()
                + (detail == null || detail.isEmpty() ? "" : " (" + detail + ")"), cause);
        this.reason = reason;
        this.topic = topic;
    }

    public Reason reason() {
        return reason;
    }

    public String topic() {
        return topic;
    }
}
