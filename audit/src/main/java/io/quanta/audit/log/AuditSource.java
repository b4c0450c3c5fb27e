package io.quanta.audit.log;

import java.util.List;
import java.util.Optional;

/**
 * Where the audit reads a cell's log: the live topics on a broker, or an export file. Implementations read the whole
 * retained history of the cell (replay needs it from the start to rebuild the state).
 */
public interface AuditSource extends AutoCloseable {

    /** The inbox records and decisions of a cell (empty lists when the cell has none). */
    CellLog cell(String cellId);

    /** The cells this source has records of, sorted. */
    List<String> cells();

    /** The cell a job was submitted to, if any inbox record says so. */
    Optional<String> cellOfJob(String jobId);

    /** Where this source reads from, for messages (e.g. {@code file audit.avro}). */
    String describe();

    @Override
    void close();
}
