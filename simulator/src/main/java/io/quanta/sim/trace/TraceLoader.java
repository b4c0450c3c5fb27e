package io.quanta.sim.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a trace CSV in the common format: a header line, comma-separated, no quoting; columns found by header name
 * ({@code job_id, submit_time_s, num_gpus, duration_s} required, {@code virtual_cluster} optional, others ignored).
 * Rows must be sorted by submit time. Errors name the line and the column.
 */
public final class TraceLoader {

    /** Tenant of jobs whose trace gives no virtual cluster. */
    public static final String DEFAULT_TENANT = "default";

    private TraceLoader() {
    }

    /** Loads a trace file. */
    public static Trace load(Path file) {
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return read(file.getFileName().toString(), reader);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read trace " + file + ": " + e.getMessage(), e);
        }
    }

    /** Parses trace text (tests, small inline traces). */
    public static Trace parse(String name, String csv) {
        try {
            return read(name, new StringReader(csv));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Trace read(String name, Reader source) throws IOException {
        BufferedReader in = new BufferedReader(source);
        String header = in.readLine();
        if (header == null) {
            throw new IllegalArgumentException("trace " + name + " is empty: a header line is required");
        }
        Columns columns = Columns.of(name, header);
        List<TraceJob> jobs = new ArrayList<>();
        String line;
        int lineNo = 1;
        while ((line = in.readLine()) != null) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            jobs.add(columns.job(line.split(",", -1), lineNo));
        }
        return new Trace(name, jobs);
    }

    /** Positions of the columns this loader reads. */
    private record Columns(String trace, int jobId, int submit, int gpus, int duration, int tenant) {

        static Columns of(String trace, String header) {
            Map<String, Integer> index = new HashMap<>();
            String[] names = header.split(",", -1);
            for (int i = 0; i < names.length; i++) {
                index.put(names[i].trim().replace("\uFEFF", ""), i);
            }
            return new Columns(trace, required(trace, index, "job_id"), required(trace, index, "submit_time_s"),
                    required(trace, index, "num_gpus"), required(trace, index, "duration_s"),
                    index.getOrDefault("virtual_cluster", -1));
        }

        private static int required(String trace, Map<String, Integer> index, String column) {
            Integer i = index.get(column);
            if (i == null) {
                throw new IllegalArgumentException("trace " + trace + ": header lacks column '" + column
                        + "' (has " + index.keySet() + ")");
            }
            return i;
        }

        TraceJob job(String[] fields, int lineNo) {
            String tenantValue = tenant >= 0 && tenant < fields.length ? fields[tenant].trim() : "";
            try {
                return new TraceJob(field(fields, jobId, "job_id", lineNo),
                        number(fields, submit, "submit_time_s", lineNo),
                        Math.toIntExact(number(fields, gpus, "num_gpus", lineNo)),
                        number(fields, duration, "duration_s", lineNo),
                        tenantValue.isEmpty() ? DEFAULT_TENANT : tenantValue);
            } catch (IllegalArgumentException | ArithmeticException e) {
                throw new IllegalArgumentException("trace " + trace + " line " + lineNo + ": " + e.getMessage(), e);
            }
        }

        private String field(String[] fields, int i, String column, int lineNo) {
            if (i >= fields.length) {
                throw new IllegalArgumentException("trace " + trace + " line " + lineNo + ": missing column '"
                        + column + "'");
            }
            return fields[i].trim();
        }

        private long number(String[] fields, int i, String column, int lineNo) {
            String text = field(fields, i, column, lineNo);
            try {
                double value = Double.parseDouble(text);
                if (value != Math.rint(value) || Double.isInfinite(value)) {
                    throw new NumberFormatException("not a whole number");
                }
                return (long) value;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("column '" + column + "' is not a whole number: '" + text + "'");
            }
        }
    }
}
