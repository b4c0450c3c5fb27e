package io.quanta.sim.suite;

import io.quanta.sim.Simulator;
import io.quanta.sim.engine.FidelityMode;
import io.quanta.sim.engine.ProgressListener;
import io.quanta.sim.engine.SimulationRun;
import io.quanta.sim.report.JobCsvWriter;
import io.quanta.streams.SoftwareVersion;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs every {@link RunSpec} on every {@link SuiteInput} in one fidelity mode and keeps each run's {@code jobs.csv}
 * and figures under {@code out/<input>/<label>/}. With {@code resume}, a run whose figures are already there is read
 * back instead of run again, and runs found in a {@code reuse} directory are read from there (the baselines'
 * decisions never change, {@code GoldenDecisionsTest}; re-run a changed policy under a new label or without
 * {@code resume}). Runs read back that another build wrote (its {@link SoftwareVersion} differs or was not recorded)
 * are counted and named in one line per label at the end: a label read from an older directory would otherwise
 * silently stand for code that has changed since. Every run written keeps the digest of what its column decides
 * ({@link DecisionFingerprint}, computed once per column and model), and a run read back whose digest differs from
 * this build's for its column is refused: it was made by code or parameters that decide differently (a label reused
 * for another setting, a directory of older code), and reading it would compare this build's columns with another's.
 */
public final class SuiteRunner {

    /** The file of a run's figures. */
    public static final String RESULT_FILE = "result.properties";

    private final Simulator simulator;
    private final FidelityMode mode;
    private final Path out;
    private final boolean resume;
    private final List<Path> reuse;
    private final int threads;
    private final PrintStream log;
    /** Runs read back that another build wrote: label, then where they came from and which build, counted. */
    private final Map<String, Map<String, Integer>> foreign = new ConcurrentHashMap<>();
    /** What each column's policy and parameters decide on the probe under this model, computed when first needed. */
    private final DecisionFingerprint.Memo decisions;

    /**
     * @param simulator runs one policy on one trace
     * @param mode the fidelity mode (model) of every run
     * @param out where the runs' files go
     * @param resume read runs already done instead of running them again
     * @param reuse other result directories (laid out like {@code out}) whose runs are read instead of run, e.g. a
     *     shared set of baseline runs
     * @param threads runs at once (each is single-threaded)
     * @param log one line per run
     */
    public SuiteRunner(Simulator simulator, FidelityMode mode, Path out, boolean resume, List<Path> reuse,
                       int threads, PrintStream log) {
        this(simulator, mode, out, resume, reuse, threads, log, new DecisionFingerprint.Memo(simulator, mode));
    }

    /**
     * The same, with the columns' digests taken from {@code decisions} (of the same simulator and model), shared with
     * the other shifts of a suite run so that each column is probed once.
     */
    public SuiteRunner(Simulator simulator, FidelityMode mode, Path out, boolean resume, List<Path> reuse,
                       int threads, PrintStream log, DecisionFingerprint.Memo decisions) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        }
        this.simulator = simulator;
        this.mode = mode;
        this.out = out;
        this.resume = resume;
        this.reuse = List.copyOf(reuse);
        this.threads = threads;
        this.log = log;
        this.decisions = decisions;
    }

    /** The results by input id, then by run label, in the order given. */
    public Map<String, Map<String, RunResult>> run(List<SuiteInput> inputs, List<RunSpec> specs) {
        List<Task> tasks = new ArrayList<>();
        for (SuiteInput input : inputs) {
            for (RunSpec spec : specs) {
                tasks.add(new Task(input, spec));
            }
        }
        AtomicInteger done = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<RunResult>> futures = new ArrayList<>();
            for (Task task : tasks) {
                futures.add(pool.submit(() -> runOne(task, done, tasks.size())));
            }
            Map<String, Map<String, RunResult>> results = new LinkedHashMap<>();
            for (int i = 0; i < tasks.size(); i++) {
                Task task = tasks.get(i);
                results.computeIfAbsent(task.input().id(), k -> new LinkedHashMap<>())
                        .put(task.spec().label(), get(futures.get(i)));
            }
            noteForeign();
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Reads a run back from {@code file}; counts it when another build wrote it.
     *
     * @throws IllegalStateException when the file's column decided otherwise than this build's column of that label
     */
    private RunResult readBack(Task task, Path file, String from) {
        RunResult.Stored stored = RunResult.Stored.read(file);
        requireSameDecisions(file, stored, task.spec(), decisions);
        RunResult result = stored.result();
        if (Double.isNaN(result.topPercentJct())) {
            // written before the file kept it: read it from the run's jobs, when they are there
            result = result.withTopPercentJct(RunResult.topPercentMean(file.resolveSibling("jobs.csv")));
        }
        String current = SoftwareVersion.current();
        String wrote = stored.software().orElse("a build that did not record its version");
        if (!current.equals(SoftwareVersion.UNKNOWN) && !wrote.equals(current)) {
            foreign.computeIfAbsent(task.spec().label(), k -> new ConcurrentHashMap<>())
                    .merge(from + " (written by " + wrote + ")", 1, Integer::sum);
        }
        return result;
    }

    private void noteForeign() {
        new TreeMap<>(foreign).forEach((label, sources) -> new TreeMap<>(sources).forEach((source, count) ->
                log.printf(Locale.ROOT, "note: %d run%s of %s read from %s, not by this build (%s): if %s's"
                                + " code changed since, these are the old code's figures; run it under another label%n",
                        count, count == 1 ? "" : "s", label, source, SoftwareVersion.current(), label)));
    }

    private record Task(SuiteInput input, RunSpec spec) {
    }

    /**
     * The result file of run {@code label} on input {@code inputId} in the first of {@code dirs} (each laid out like
     * {@code out}) that has one, without running anything.
     */
    public static Optional<Path> keptFile(List<Path> dirs, String inputId, String label) {
        for (Path dir : dirs) {
            Path file = dir.resolve(inputId).resolve(label).resolve(RESULT_FILE);
            if (Files.isRegularFile(file)) {
                return Optional.of(file);
            }
        }
        return Optional.empty();
    }

    private RunResult runOne(Task task, AtomicInteger done, int total) {
        Path dir = out.resolve(task.input().id()).resolve(task.spec().label());
        Path file = dir.resolve(RESULT_FILE);
        if (resume && Files.isRegularFile(file)) {
            RunResult kept = readBack(task, file, out.toString());
            log(done, total, task, kept, "kept");
            return kept;
        }
        for (Path other : reuse) {
            Optional<Path> elsewhere = keptFile(List.of(other), task.input().id(), task.spec().label());
            if (elsewhere.isPresent()) {
                RunResult kept = readBack(task, elsewhere.get(), other.toString());
                log(done, total, task, kept, "read from " + other);
                return kept;
            }
        }
        SimulationRun run = simulator.run(task.input().trace(), task.input().cluster(), mode,
                task.spec().policyParams(), task.input().seed(), ProgressListener.NONE);
        RunResult result = RunResult.of(run, task.input().cluster().gpusPerServer());
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir + ": " + e.getMessage(), e);
        }
        JobCsvWriter.write(dir.resolve("jobs.csv"), run.outcomes());
        result.write(file, Optional.of(decisions.of(task.spec().policyParams())));
        log(done, total, task, result, String.format(Locale.ROOT, "%.1f s", result.wallSeconds()));
        return result;
    }

    /**
     * Refuses a kept run whose digest differs from what {@code spec} decides in this build (asked of
     * {@code decisions} only when the file has a digest).
     *
     * @throws IllegalStateException naming the file, the column and both digests
     */
    static void requireSameDecisions(Path file, RunResult.Stored stored, RunSpec spec,
                                     DecisionFingerprint.Memo decisions) {
        if (stored.decisions().isEmpty()) {
            return;
        }
        String current = decisions.of(spec.policyParams());
        if (!stored.decisions().get().equals(current)) {
            throw new IllegalStateException(file + " was made by code or parameters that decide otherwise than this"
                    + " build's column " + spec.label() + " " + spec.policyParams() + " (decisions "
                    + stored.decisions().get() + " against " + current + " on the probe of "
                    + DecisionFingerprint.class.getSimpleName() + "): run the column under another label, or"
                    + " remove the file");
        }
    }

    private void log(AtomicInteger done, int total, Task task, RunResult r, String how) {
        synchronized (log) {
            log.printf(Locale.ROOT, "[%d/%d] %s %s on %s: avg JCT %.0f s, p99 %.0f s, %.3f preemptions/job,"
                            + " %d unfinished (%s)%n", done.incrementAndGet(), total, task.input().id(),
                    task.spec().label(), task.input().cluster(), r.avgJct(), r.p99Jct(), r.preemptionsPerJob(),
                    r.unfinished(), how);
        }
    }

    private static RunResult get(Future<RunResult> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(cause);
        }
    }
}
