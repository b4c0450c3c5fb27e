package io.quanta.audit;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Options of {@code quanta audit explain JOB}.
 *
 * @param jobId  the job
 * @param cellId its cell ({@code --cell}); empty = found by scanning the inbox for the job's submission
 * @param file   an export file to read instead of the broker ({@code --file})
 * @param json   print JSON instead of a table ({@code --json})
 */
public record ExplainOptions(String jobId, Optional<String> cellId, Optional<Path> file, boolean json) {

    public ExplainOptions {
        Objects.requireNonNull(jobId, "jobId");
    }
}
