package io.quanta.audit;

import io.quanta.audit.replay.LogPosition;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Options of {@code quanta audit replay}.
 *
 * @param cellId the cell to replay
 * @param from   first point compared ({@code --from}), empty = the beginning
 * @param to     last point replayed and compared ({@code --to}), empty = the end
 * @param file   an export file to read instead of the broker ({@code --file})
 * @param shown  how many divergences to print in detail ({@code --show}, default 3)
 */
public record ReplayOptions(String cellId, Optional<LogPosition> from, Optional<LogPosition> to, Optional<Path> file,
                            int shown) {

    public ReplayOptions {
        Objects.requireNonNull(cellId, "cellId");
        if (shown < 0) {
            throw new IllegalArgumentException("--show must be >= 0, got " + shown);
        }
    }

    /** The whole log of a cell, from the broker, three divergences shown. */
    public static ReplayOptions of(String cellId) {
        return new ReplayOptions(cellId, Optional.empty(), Optional.empty(), Optional.empty(), 3);
    }

    /** These options reading an export file. */
    public ReplayOptions withFile(Path value) {
        return new ReplayOptions(cellId, from, to, Optional.of(value), shown);
    }
}
