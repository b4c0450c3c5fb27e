package io.quanta.audit.replay;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/** A point in a cell's history: an inbox offset, or a stream time. */
public sealed interface LogPosition {

    /** An offset in the cell's inbox partition. */
    record Offset(long offset) implements LogPosition {
        @Override
        public String toString() {
            return "inbox offset " + offset;
        }
    }

    /** A stream time (record timestamps, the scheduler's clock). */
    record Time(Instant time) implements LogPosition {
        @Override
        public String toString() {
            return time.toString();
        }
    }

    /**
     * Parses {@code 1234} (an inbox offset) or an ISO-8601 instant such as {@code 2017-10-27T07:09:00Z}.
     *
     * @throws IllegalArgumentException naming the text and the two accepted forms
     */
    static LogPosition parse(String text) {
        String t = text.trim();
        if (!t.isEmpty() && t.chars().allMatch(Character::isDigit)) {
            return new Offset(Long.parseLong(t));
        }
        try {
            return new Time(Instant.parse(t));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is neither an inbox offset (digits) nor an ISO-8601 "
                    + "instant such as 2017-10-27T07:09:00Z");
        }
    }

    /** True when a point at {@code offset} / {@code timeMs} is at or after this position. */
    default boolean atOrBefore(long offset, long timeMs) {
        return switch (this) {
            case Offset o -> o.offset() <= offset;
            case Time t -> t.time().toEpochMilli() <= timeMs;
        };
    }

    /** True when a point at {@code offset} / {@code timeMs} is at or before this position. */
    default boolean atOrAfter(long offset, long timeMs) {
        return switch (this) {
            case Offset o -> o.offset() >= offset;
            case Time t -> t.time().toEpochMilli() >= timeMs;
        };
    }
}
