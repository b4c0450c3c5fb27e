package io.quanta.audit;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Options of {@code quanta audit export --cell C --to FILE}.
 *
 * @param cellId the cell to export
 * @param to     the Avro container file to write (replaced)
 */
public record ExportOptions(String cellId, Path to) {

    public ExportOptions {
        Objects.requireNonNull(cellId, "cellId");
        Objects.requireNonNull(to, "to");
    }
}
