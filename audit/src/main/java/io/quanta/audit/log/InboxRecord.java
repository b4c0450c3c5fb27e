package io.quanta.audit.log;

import io.quanta.schemas.CellInput;
import java.time.Instant;
import java.util.Objects;

/**
 * One record of the cell inbox as the scheduler saw it: its offset in the inbox partition, its timestamp (the
 * scheduler's stream time comes from it), its key, and the decoded input. {@code input} is null when the value
 * could not be decoded (the live scheduler dead-lettered it without touching any state); {@code undecodable} then
 * holds the raw bytes.
 *
 * @param offset      offset in the inbox partition
 * @param timestampMs record timestamp, epoch milliseconds
 * @param key         record key (the cell id), may be null
 * @param input       the decoded input, or null
 * @param undecodable the raw value when {@code input} is null, else null
 */
public record InboxRecord(long offset, long timestampMs, String key, CellInput input, byte[] undecodable) {

    public InboxRecord {
        if ((input == null) == (undecodable == null)) {
            throw new IllegalArgumentException("inbox record at offset " + offset
                    + " needs exactly one of a decoded input and raw bytes");
        }
    }

    /** A decoded record. */
    public static InboxRecord of(long offset, long timestampMs, String key, CellInput input) {
        return new InboxRecord(offset, timestampMs, key, Objects.requireNonNull(input, "input"), null);
    }

    /** A record whose value could not be decoded. */
    public static InboxRecord undecodable(long offset, long timestampMs, String key, byte[] raw) {
        return new InboxRecord(offset, timestampMs, key, null, raw == null ? new byte[0] : raw.clone());
    }

    /**
     * True when the cell scheduler of {@code cellId} applied this record to the cell's state: decoded, keyed by the
     * cell and addressed to it. Any other record was dead-lettered live without changing state.
     */
    public boolean appliesTo(String cellId) {
        return input != null && cellId.equals(key) && cellId.equals(input.getCellId());
    }

    /** The record timestamp. */
    public Instant timestamp() {
        return Instant.ofEpochMilli(timestampMs);
    }

    /** One line: offset, time and what the record says. */
    public String describe() {
        return "inbox offset " + offset + " at " + timestamp() + ": "
                + (input == null ? "undecodable (" + undecodable.length + " bytes)" : InputText.describe(input));
    }
}
