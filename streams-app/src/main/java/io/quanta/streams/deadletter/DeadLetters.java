package io.quanta.streams.deadletter;

import io.quanta.schemas.DeadLetter;
import io.quanta.schemas.SourceRef;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;

/**
 * Builds the dead-letter records of the topology: where the input came from, a bounded copy of its raw bytes when
 * known, and why. Every dead letter of the scheduler, whether a router, the cell engine or one of Kafka Streams'
 * exception handlers ({@link io.quanta.streams.app.DeadLetterHandler}) wrote it, has this one format.
 *
 * <p>Copies are bounded so that a dead letter always fits in a Kafka record: a value near the broker's 1 MB limit
 * plus the envelope would not, and the dead letter itself would then fail to be written. The reason says when a copy
 * was cut.
 *
 * <p>Values that may hold a job's command line and environment (records of the submissions topics and the cell
 * inbox, see {@link JobSecretTopics}) are never copied ({@link #withoutValue}): the dead-letter topic is read by
 * auditors and kept long after the job, and secrets must not reach it in the clear. Redacting a decoded submission
 * would not do: bytes that do not decode can hold the same text, and a re-encoded record is not the original. The
 * source coordinates name the original record, which stays on its topic (within that topic's retention, for those
 * who may read it).
 */
public final class DeadLetters {

    /** Most value bytes copied into a dead letter. */
    public static final int MAX_VALUE_COPY = 64 * 1024;
    /** Most key bytes copied into a dead letter (and used as its record key). */
    public static final int MAX_KEY_COPY = 1024;
    /** Longest reason kept (characters). */
    public static final int MAX_REASON = 4096;

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
        return build(source, key, value, reason, errorClass, at, "");
    }

    /**
     * A dead letter for an original record whose value may hold a job's command line and environment: like
     * {@link #of} but without a copy of the value; the reason ends with its length and where the original is.
     */
    public static DeadLetter withoutValue(SourceRef source, byte[] key, byte[] value, String reason, String errorClass,
                                          Instant at) {
        return build(source, key, null, reason, errorClass, at, value == null ? "" : " [value of " + value.length
                + " bytes not copied: it may hold a job's command line and environment; the original is at its "
                + "source topic, partition and offset]");
    }

    private static DeadLetter build(SourceRef source, byte[] key, byte[] value, String reason, String errorClass,
                                    Instant at, String note) {
        String cut = note;
        if (value != null && value.length > MAX_VALUE_COPY) {
            cut += " [value cut to its first " + MAX_VALUE_COPY + " of " + value.length + " bytes]";
        }
        if (key != null && key.length > MAX_KEY_COPY) {
            cut += " [key cut to its first " + MAX_KEY_COPY + " of " + key.length + " bytes]";
        }
        return DeadLetter.newBuilder()
                .setSourceTopic(source == null ? "" : source.getTopic())
                .setPartition(source == null ? -1 : source.getPartition())
                .setOffset(source == null ? -1 : source.getOffset())
                .setKey(key == null ? null : ByteBuffer.wrap(prefix(key, MAX_KEY_COPY)))
                .setValue(value == null ? null : ByteBuffer.wrap(prefix(value, MAX_VALUE_COPY)))
                .setReason(bounded(reason == null || reason.isBlank() ? "unknown reason" : reason, cut))
                .setErrorClass(errorClass == null ? "" : errorClass)
                .setAt(at)
                .build();
    }

    /** A dead letter for a decoded record that turned out unusable (no raw value bytes). */
    public static DeadLetter unusable(SourceRef source, String key, String reason, Instant at) {
        return of(source, key == null ? null : key.getBytes(StandardCharsets.UTF_8), null, reason, "", at);
    }

    /** The record key of a dead letter: the original key, cut to {@link #MAX_KEY_COPY} bytes. */
    public static String recordKey(byte[] key) {
        return key == null ? null : new String(prefix(key, MAX_KEY_COPY), StandardCharsets.UTF_8);
    }

    /** The record key of a dead letter from a decoded key. */
    public static String recordKey(String key) {
        return key == null || key.length() <= MAX_KEY_COPY / 4 ? key
                : recordKey(key.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] prefix(byte[] bytes, int max) {
        return bytes.length <= max ? bytes : Arrays.copyOf(bytes, max);
    }

    private static String bounded(String reason, String cut) {
        int room = MAX_REASON - cut.length();
        return (reason.length() <= room ? reason : reason.substring(0, room - 3) + "...") + cut;
    }
}
