package io.quanta.audit.log;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** An {@link AuditSource} over an export file ({@link AuditExportFile}): one cell, read into memory once. */
public final class ExportFileSource implements AuditSource {

    private final Path file;
    private final CellLog log;

    private ExportFileSource(Path file, CellLog log) {
        this.file = file;
        this.log = log;
    }

    /** Reads the file. */
    public static ExportFileSource open(Path file) {
        return new ExportFileSource(file, AuditExportFile.read(file));
    }

    @Override
    public CellLog cell(String cellId) {
        if (!log.cellId().equals(cellId)) {
            throw new IllegalArgumentException("the export " + file + " holds cell " + log.cellId() + ", not "
                    + cellId);
        }
        return log;
    }

    @Override
    public List<String> cells() {
        return List.of(log.cellId());
    }

    @Override
    public Optional<String> cellOfJob(String jobId) {
        return JobCells.submittedIn(log.inbox(), jobId).map(r -> log.cellId());
    }

    @Override
    public String describe() {
        return "file " + file;
    }

    @Override
    public void close() {
        // nothing held open
    }
}
