package io.quanta.audit.replay;

import java.util.Optional;

/**
 * Which part of a cell's history is compared. The replay itself always starts at the beginning of the retained inbox
 * (the state is rebuilt from it) and stops after {@code to}; only decisions made within [{@code from}, {@code to}]
 * are compared. A decision's place is the inbox record it was made on ({@code inboxOffsetTo}) and its stream time.
 *
 * @param from first point compared, empty = the beginning
 * @param to   last point replayed and compared, empty = the end of the log
 */
public record ReplayWindow(Optional<LogPosition> from, Optional<LogPosition> to) {

    /** The whole history. */
    public static ReplayWindow all() {
        return new ReplayWindow(Optional.empty(), Optional.empty());
    }

    /** True when a decision made on the inbox record at {@code offset}, at stream time {@code timeMs}, is compared. */
    public boolean includes(long offset, long timeMs) {
        return from.map(f -> f.atOrBefore(offset, timeMs)).orElse(true)
                && to.map(t -> t.atOrAfter(offset, timeMs)).orElse(true);
    }

    /** True when an inbox record at {@code offset} with timestamp {@code timeMs} lies after {@code to}. */
    public boolean pastEnd(long offset, long timeMs) {
        return to.map(t -> !t.atOrAfter(offset, timeMs)).orElse(false);
    }

    /** True when the whole history is compared. */
    public boolean isAll() {
        return from.isEmpty() && to.isEmpty();
    }

    @Override
    public String toString() {
        return isAll() ? "the whole log" : "from " + from.map(Object::toString).orElse("the beginning") + " to "
                + to.map(Object::toString).orElse("the end");
    }
}
