package io.quanta.sim.report;

import io.quanta.sim.metrics.TimelineSample;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Writes a run's timeline as CSV: {@code at_s,allocated_gpus,useful_gpus,running_jobs,queued_jobs}. */
public final class TimelineCsvWriter {

    private TimelineCsvWriter() {
    }

    /** Writes the file. */
    public static void write(Path file, List<TimelineSample> samples) {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("at_s,allocated_gpus,useful_gpus,running_jobs,queued_jobs\n");
            for (TimelineSample s : samples) {
                w.write(Numbers.plain(s.atSeconds()) + "," + s.allocatedGpus() + "," + Numbers.plain(s.usefulGpus())
                        + "," + s.runningJobs() + "," + s.queuedJobs() + "\n");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
