package io.quanta.streams;

import io.quanta.schemas.DeadLetter;
import io.quanta.schemas.SourceRef;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/** Builds the dead-letter records of the topology: where the input came from, its raw bytes when known, and why. */
public final class DeadLetters {

    private DeadLetters() {
    }

    /**
     * A dead letter for an original record.
     *
     * @param source     topic, partition and offset of the original record ({@code null}: unknown, recorded as -1)
     * @param key        the original key bytes, or null
     * @param value      the original value bytes, or null when the record was decoded before it was found unusable
     * @param reason     why it could not be used
     * @param errorClass the exception class behind it, or empty
     * @param at         stream time of the original record
     */
    public static DeadLetter of(SourceRef source, byte[] key, byte[] value, String reason, String errorClass,
                                Instant at) {
        return DeadLetter.newBuilder()
                .setSourceTopic(source == null ? "" : source.getTopic())
                .setPartition(source == null ? -1 : source.getPartition())
                .setOffset(source == null ? -1 : source.getOffset())
                .setKey(key == null ? null : ByteBuffer.wrap(key))
                .setValue(value == null ? null : ByteBuffer.wrap(value))
                .setReason(reason)
                .setErrorClass(errorClass == null ? "" : errorClass)
                .setAt(at)
                .build();
    }

    /** A dead letter for a decoded record that turned out unusable (no raw value bytes). */
    public static DeadLetter unusable(SourceRef source, String key, String reason, Instant at) {
        return of(source, key == null ? null : key.getBytes(StandardCharsets.UTF_8), null, reason, "", at);
    }
}
