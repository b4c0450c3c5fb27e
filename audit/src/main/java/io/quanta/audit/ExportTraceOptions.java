package io.quanta.audit;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * Options of {@code quanta audit export-trace}.
 *
 * @param cellId only this cell ({@code --cell}); empty = every cell of the inbox (or the export file's cell)
 * @param file   an export file to read instead of the broker ({@code --file})
 * @param from   only jobs submitted at or after ({@code --from}, ISO-8601)
 * @param to     only jobs submitted at or before ({@code --to}, ISO-8601)
 * @param output the CSV file to write ({@code --output}); empty = standard output
 */
public record ExportTraceOptions(Optional<String> cellId, Optional<Path> file, Optional<Instant> from,
                                 Optional<Instant> to, Optional<Path> output) {
}
