package io.quanta.sim.suite;

import io.quanta.sim.engine.SimulationRun;
import io.quanta.sim.metrics.JobOutcome;
import io.quanta.sim.metrics.Summary;
import io.quanta.sim.metrics.TimeSplit;
import io.quanta.sim.report.JobCsvWriter;
import io.quanta.streams.SoftwareVersion;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;

/**
 * The figures the suite keeps of one run (one policy on one input).
 *
 * @param avgJct mean JCT, seconds
 * @param p99Jct 99th percentile JCT by nearest rank, seconds
 * @param preemptionsPerJob SUSPEND decisions per job
 * @param migrationsPerJob MIGRATE decisions per job
 * @param unfinished jobs that did not finish
 * @param multiGpuJobs jobs of more than one GPU
 * @param spreadGangs multi-GPU jobs that ran on more servers than the fewest that hold them in some attempt
 * @param wallSeconds wall time of the run
 * @param topPercentJct mean JCT of the 1% longest finished jobs (at least one), seconds; NaN when not known (a result
 *     file written before it was kept, read without its {@code jobs.csv})
 * @param split where the average job's time beyond its duration went; empty when not known (a result file written
 *     before it was kept)
 *
 * <p>The figures are held as the result file holds them (six decimals), so that a run just computed and the same run
 * read back from its file are equal: comparisons between columns, some run and some kept, never see rounding.
 */
public record RunResult(double avgJct, double p99Jct, double preemptionsPerJob, double migrationsPerJob,
                        int unfinished, int multiGpuJobs, int spreadGangs, double wallSeconds, double topPercentJct,
                        Optional<TimeSplit> split) {

    /** The result file's property naming the build that ran it ({@link #software}). */
    static final String SOFTWARE = "software";
    /** The result file's property holding {@link #topPercentJct} (absent from files written before it). */
    static final String TOP_PERCENT = "top_percent_jct_s";
    /** The result file's properties holding {@link #split}'s three parts (absent from files written before it). */
    static final List<String> SPLIT = List.of("first_queue_s", "waiting_after_start_s", "running_beyond_s");
    /** The result file's property holding the column's {@link DecisionFingerprint} under the run's model. */
    static final String DECISIONS = "decisions_fingerprint";
    /** The longest build text a result file's {@link #SOFTWARE} may contribute to a printed line. */
    static final int SOFTWARE_MAX_CHARS = 120;

    public RunResult {
        avgJct = kept(avgJct);
        p99Jct = kept(p99Jct);
        preemptionsPerJob = kept(preemptionsPerJob);
        migrationsPerJob = kept(migrationsPerJob);
        wallSeconds = kept(wallSeconds);
        topPercentJct = kept(topPercentJct);
        split = split.map(t -> new TimeSplit(kept(t.firstQueue()), kept(t.waitingAfterStart()),
                kept(t.runningBeyond())));
    }

    /** The figures without the split (not known). */
    public RunResult(double avgJct, double p99Jct, double preemptionsPerJob, double migrationsPerJob, int unfinished,
                     int multiGpuJobs, int spreadGangs, double wallSeconds, double topPercentJct) {
        this(avgJct, p99Jct, preemptionsPerJob, migrationsPerJob, unfinished, multiGpuJobs, spreadGangs, wallSeconds,
                topPercentJct, Optional.empty());
    }

    /** The figures without the top percent's mean (not known). */
    public RunResult(double avgJct, double p99Jct, double preemptionsPerJob, double migrationsPerJob, int unfinished,
                     int multiGpuJobs, int spreadGangs, double wallSeconds) {
        this(avgJct, p99Jct, preemptionsPerJob, migrationsPerJob, unfinished, multiGpuJobs, spreadGangs, wallSeconds,
                Double.NaN);
    }

    /** This result with the top percent's mean set to {@code value}. */
    public RunResult withTopPercentJct(double value) {
        return new RunResult(avgJct, p99Jct, preemptionsPerJob, migrationsPerJob, unfinished, multiGpuJobs,
                spreadGangs, wallSeconds, value, split);
    }

    /**
     * The mean of the 1% longest of {@code jcts} (at least one of them), NaN for none: a reading of the tail beside
     * the p99, whose one rank can fall anywhere in a group of alike jobs.
     */
    public static double topPercentMean(double[] jcts) {
        if (jcts.length == 0) {
            return Double.NaN;
        }
        double[] sorted = jcts.clone();
        Arrays.sort(sorted);
        int k = Math.max(1, (int) Math.ceil(sorted.length / 100.0));
        double sum = 0;
        for (int i = sorted.length - k; i < sorted.length; i++) {
            sum += sorted[i];
        }
        return sum / k;
    }

    /** The figures of a finished simulation on servers of {@code gpusPerServer} GPUs. */
    public static RunResult of(SimulationRun run, int gpusPerServer) {
        Summary s = run.summary();
        int multi = 0;
        int spread = 0;
        for (JobOutcome o : run.outcomes()) {
            if (o.numGpus() > 1) {
                multi++;
                if (o.serversUsed() > (o.numGpus() + gpusPerServer - 1) / gpusPerServer) {
                    spread++;
                }
            }
        }
        double[] jcts = run.outcomes().stream().filter(JobOutcome::finished)
                .mapToDouble(o -> o.jctSeconds().getAsDouble()).toArray();
        return new RunResult(s.avgJct(), s.p99Jct(), s.preemptionsPerJob(), s.migrationsPerJob(), s.unfinished(),
                multi, spread, s.wallSeconds(), topPercentMean(jcts), s.split());
    }

    /**
     * {@link #topPercentMean} of the finished jobs of a run's {@code jobs.csv} ({@link JobCsvWriter}, or an older
     * build's without {@code running_s}); NaN when the file is missing or is not such a file (another header, a row of
     * another width, a JCT that is not a number): the figure is a reading beside the others, and a file kept by hand
     * must not stop a table.
     */
    public static double topPercentMean(Path jobsCsv) {
        if (!Files.isRegularFile(jobsCsv)) {
            return Double.NaN;
        }
        int jctColumn = Arrays.asList(JobCsvWriter.HEADER.split(",")).indexOf("jct_s");
        List<Double> jcts = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(jobsCsv, StandardCharsets.UTF_8)) {
            String header = in.readLine();
            if (!JobCsvWriter.HEADER.equals(header) && !JobCsvWriter.HEADER_WITHOUT_RUNNING.equals(header)) {
                return Double.NaN;
            }
            int columns = header.split(",").length;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                String[] cells = line.split(",", -1);
                if (cells.length != columns) {
                    return Double.NaN;
                }
                if (!cells[jctColumn].isEmpty()) {
                    double jct = Double.parseDouble(cells[jctColumn]);
                    if (!Double.isFinite(jct)) {
                        return Double.NaN;
                    }
                    jcts.add(jct);
                }
            }
        } catch (IOException | NumberFormatException e) {
            return Double.NaN;
        }
        return topPercentMean(jcts.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** Writes the figures as a properties file. */
    public void write(Path file) {
        write(file, Optional.empty());
    }

    /** Writes the figures as a properties file, with the digest of what the column decides when given. */
    public void write(Path file, Optional<String> decisions) {
        Properties p = new Properties();
        decisions.ifPresent(d -> p.setProperty(DECISIONS, d));
        p.setProperty("avg_jct_s", num(avgJct));
        p.setProperty("p99_jct_s", num(p99Jct));
        p.setProperty("preemptions_per_job", num(preemptionsPerJob));
        p.setProperty("migrations_per_job", num(migrationsPerJob));
        p.setProperty("unfinished", Integer.toString(unfinished));
        p.setProperty("multi_gpu_jobs", Integer.toString(multiGpuJobs));
        p.setProperty("spread_gangs", Integer.toString(spreadGangs));
        p.setProperty("wall_s", num(wallSeconds));
        if (!Double.isNaN(topPercentJct)) {
            p.setProperty(TOP_PERCENT, num(topPercentJct));
        }
        split.ifPresent(t -> {
            p.setProperty(SPLIT.get(0), num(t.firstQueue()));
            p.setProperty(SPLIT.get(1), num(t.waitingAfterStart()));
            p.setProperty(SPLIT.get(2), num(t.runningBeyond()));
        });
        p.setProperty(SOFTWARE, SoftwareVersion.current());
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            p.store(w, null);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** Reads a file written by {@link #write}. */
    public static RunResult read(Path file) {
        return Stored.read(file).result();
    }

    /**
     * A result file as read back: its figures, the build that wrote it ({@link SoftwareVersion}: version and git
     * commit), empty when the file does not say (written before builds recorded it) or the build was not stamped, and
     * the digest of what its column decided ({@link DecisionFingerprint}), empty when the file predates it. Both texts
     * come from a file that may have been edited by hand, so each is kept to one line of at most
     * {@value #SOFTWARE_MAX_CHARS} characters before anything prints it.
     */
    public record Stored(RunResult result, Optional<String> software, Optional<String> decisions) {

        /** Reads a file written by {@link #write}, once. */
        public static Stored read(Path file) {
            Properties p = load(file);
            RunResult result;
            try {
                result = new RunResult(figure(p, "avg_jct_s"), figure(p, "p99_jct_s"),
                        figure(p, "preemptions_per_job"), figure(p, "migrations_per_job"),
                        count(p, "unfinished"), count(p, "multi_gpu_jobs"), count(p, "spread_gangs"),
                        figure(p, "wall_s"), p.getProperty(TOP_PERCENT) == null ? Double.NaN : figure(p, TOP_PERCENT),
                        split(p));
            } catch (NullPointerException | NumberFormatException e) {
                throw new Malformed("malformed run result " + file + ": " + e.getMessage(), e);
            }
            String software = oneLine(p.getProperty(SOFTWARE, ""));
            String decisions = oneLine(p.getProperty(DECISIONS, ""));
            return new Stored(result, software.isEmpty() || software.equals(SoftwareVersion.UNKNOWN)
                    ? Optional.empty() : Optional.of(software),
                    decisions.isEmpty() ? Optional.empty() : Optional.of(decisions));
        }

        /**
         * A figure of the file: a number, not below 0 and not infinite (NaN stands for a figure a run could not give,
         * e.g. the average of a run whose jobs all failed to finish).
         */
        private static double figure(Properties p, String key) {
            double v = Double.parseDouble(p.getProperty(key));
            if (v < 0 || Double.isInfinite(v)) {
                throw new NumberFormatException(key + " must be a number >= 0, got " + p.getProperty(key));
            }
            return v;
        }

        /**
         * The split when the file has all three parts, each a finite number (a part may be a little below 0: a job's
         * running time is counted from its nodes' events, its JCT from the scheduler's status); empty when it has none.
         */
        private static Optional<TimeSplit> split(Properties p) {
            if (SPLIT.stream().allMatch(k -> p.getProperty(k) == null)) {
                return Optional.empty();
            }
            double[] parts = new double[SPLIT.size()];
            for (int i = 0; i < parts.length; i++) {
                String key = SPLIT.get(i);
                parts[i] = Double.parseDouble(p.getProperty(key));
                if (!Double.isFinite(parts[i])) {
                    throw new NumberFormatException(key + " must be a finite number, got " + p.getProperty(key));
                }
            }
            return Optional.of(new TimeSplit(parts[0], parts[1], parts[2]));
        }

        /** A count of the file: a whole number, not below 0. */
        private static int count(Properties p, String key) {
            int v = Integer.parseInt(p.getProperty(key));
            if (v < 0) {
                throw new NumberFormatException(key + " must be a whole number >= 0, got " + v);
            }
            return v;
        }

        private static String oneLine(String text) {
            String line = text.replaceAll("\\p{Cntrl}", " ").trim();
            return line.length() <= SOFTWARE_MAX_CHARS ? line : line.substring(0, SOFTWARE_MAX_CHARS) + "...";
        }
    }

    /** A result file that is not one {@link #write} wrote: a missing figure or one that is not a number. */
    public static final class Malformed extends IllegalArgumentException {

        private static final long serialVersionUID = 1L;

        Malformed(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private static Properties load(Path file) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        return p;
    }

    /** {@code v} as {@link #write} writes and {@link #read} reads it. */
    private static double kept(double v) {
        return Double.parseDouble(num(v));
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, "%.6f", v);
    }
}
