package io.quanta.sim.report;

import io.quanta.sim.metrics.JobOutcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Writes per-job outcomes as CSV, one row per trace job in trace order, LF line endings, seconds with up to three
 * decimals, empty cells for what did not happen (never started, unfinished). Columns: {@value #HEADER}.
 */
public final class JobCsvWriter {

    /** The header line. */
    public static final String HEADER = "job_id,tenant,model,num_gpus,duration_s,submit_s,first_start_s,finish_s,"
            + "jct_s,queueing_delay_s,preemptions,migrations,servers_used,final_state,running_s";

    /** The header before {@code running_s} was added (files written by older builds). */
    public static final String HEADER_WITHOUT_RUNNING = HEADER.substring(0, HEADER.lastIndexOf(','));

    private JobCsvWriter() {
    }

    /** Writes the file. */
    public static void write(Path file, List<JobOutcome> outcomes) {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            write(w, outcomes);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** Writes the CSV text to {@code out}. */
    public static void write(Writer out, List<JobOutcome> outcomes) throws IOException {
        write(out, outcomes, true);
    }

    /**
     * Writes the CSV text to {@code out}, without the {@code running_s} column when {@code withRunning} is false (the
     * columns of {@link #HEADER_WITHOUT_RUNNING}, as older builds wrote them).
     */
    public static void write(Writer out, List<JobOutcome> outcomes, boolean withRunning) throws IOException {
        out.write(withRunning ? HEADER : HEADER_WITHOUT_RUNNING);
        out.write('\n');
        StringBuilder row = new StringBuilder(160);
        for (JobOutcome o : outcomes) {
            row.setLength(0);
            row.append(o.jobId()).append(',')
                    .append(o.tenant()).append(',')
                    .append(o.model()).append(',')
                    .append(o.numGpus()).append(',')
                    .append(o.durationSeconds()).append(',')
                    .append(Numbers.plain(o.submitSeconds())).append(',')
                    .append(cell(o.firstStartSeconds())).append(',')
                    .append(cell(o.finishSeconds())).append(',')
                    .append(cell(o.jctSeconds())).append(',')
                    .append(cell(o.queueingDelaySeconds())).append(',')
                    .append(o.preemptions()).append(',')
                    .append(o.migrations()).append(',')
                    .append(o.serversUsed()).append(',')
                    .append(o.finalState());
            if (withRunning) {
                row.append(',').append(cell(o.runningSeconds()));
            }
            row.append('\n');
            out.write(row.toString());
        }
    }

    private static String cell(OptionalDouble v) {
        return v.isPresent() ? Numbers.plain(v.getAsDouble()) : "";
    }
}
