package io.quanta.sim.testing;

import io.quanta.sim.trace.Trace;
import io.quanta.sim.trace.TraceLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Test traces: inline synthetic ones and the shared real traces next to the repository. */
public final class Traces {

    private static final String HEADER = "job_id,submit_time_s,num_gpus,duration_s,status,user,virtual_cluster\n";

    private Traces() {
    }

    /** A trace from rows {@code id,submit,gpus,duration} (tenant {@code vc}). */
    public static Trace of(String... rows) {
        StringBuilder csv = new StringBuilder(HEADER);
        for (String row : rows) {
            csv.append(row).append(",UNKNOWN,,vc\n");
        }
        return TraceLoader.parse("synthetic", csv.toString());
    }

    /**
     * A file of {@code ../shared/traces} relative to the repository root (found by walking up from the working
     * directory to the folder holding {@code mvnw}), if it exists.
     */
    public static Optional<Path> shared(String fileName) {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("mvnw"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            return Optional.empty();
        }
        Path file = dir.resolve("../shared/traces").resolve(fileName).normalize();
        return Files.isReadable(file) ? Optional.of(file) : Optional.empty();
    }
}
