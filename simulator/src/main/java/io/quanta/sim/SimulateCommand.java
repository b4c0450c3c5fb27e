package io.quanta.sim;

import io.quanta.sim.engine.EngineSettings;
import io.quanta.sim.engine.ProgressListener;
import io.quanta.sim.engine.SchedulerFactory;
import io.quanta.sim.engine.SimulationRun;
import io.quanta.sim.report.ComparisonTable;
import io.quanta.sim.report.DecisionLogWriter;
import io.quanta.sim.report.HtmlReport;
import io.quanta.sim.report.JobCsvWriter;
import io.quanta.sim.report.SummaryWriter;
import io.quanta.sim.report.TerminalProgress;
import io.quanta.sim.report.TimelineCsvWriter;
import io.quanta.sim.trace.Trace;
import io.quanta.sim.trace.TraceLoader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * {@code quanta simulate}: loads the trace, runs the policy (or each policy of {@code --compare}) and writes the
 * results under the output directory:
 * <ul>
 *   <li>one run: {@code jobs.csv}, {@code summary.json}, {@code summary.txt}, {@code timeline.csv},
 *       {@code report.html}; the summary is printed;</li>
 *   <li>{@code --compare}: the same files in one sub-directory per policy, plus {@code comparison.txt},
 *       {@code comparison.md} and one {@code report.html} with every policy; the table is printed.</li>
 * </ul>
 */
public final class SimulateCommand {

    private final SchedulerFactory schedulers;
    private final EngineSettings settings;
    private final LongSupplier nanoTime;

    /**
     * @param schedulers makes the scheduler of each run (the real topology: {@code TopologyScheduler::create})
     * @param settings event-loop knobs
     * @param nanoTime wall clock, to measure runs and throttle progress
     */
    public SimulateCommand(SchedulerFactory schedulers, EngineSettings settings, LongSupplier nanoTime) {
        this.schedulers = schedulers;
        this.settings = settings;
        this.nanoTime = nanoTime;
    }

    /**
     * Runs the simulation(s) and writes every output file.
     *
     * @param out where the summary or comparison table is printed
     * @param err where progress goes (when {@code options.progress()})
     * @return the runs, in the order of {@link SimulationOptions#policies()}
     */
    public List<SimulationRun> execute(SimulationOptions options, PrintStream out, PrintStream err) {
        Trace trace = TraceLoader.load(options.trace());
        if (options.limit() > 0) {
            trace = trace.first(options.limit());
        }
        Simulator simulator = new Simulator(schedulers, settings, nanoTime);
        List<SimulationRun> runs = new ArrayList<>();
        mkdirs(options.outputDir());
        for (String policy : options.policies()) {
            ProgressListener progress = options.progress()
                    ? new TerminalProgress(err, policy, nanoTime, 2_000_000_000L) : ProgressListener.NONE;
            Path dir = options.comparing() ? options.outputDir().resolve(policy) : options.outputDir();
            mkdirs(dir);
            SimulationRun run;
            try (DecisionLogWriter log = options.decisions()
                    ? DecisionLogWriter.open(dir.resolve(DecisionLogWriter.FILE)) : null) {
                run = simulator.run(trace, options.cluster(), options.mode(), options.policyParams(policy),
                        options.seed(), progress, log != null ? log : decision -> { });
            }
            runs.add(run);
            writeRun(dir, facts(options, trace, policy), run);
            if (options.comparing()) {
                out.println(policy + ": avg JCT " + io.quanta.sim.report.Numbers.human(run.summary().avgJct(), 0)
                        + " s, " + run.summary().unfinished() + " unfinished, " + dir);
            }
        }
        Map<String, String> facts = facts(options, trace, null);
        String title = "Quanta simulation: " + trace.name() + " on " + options.cluster() + " ("
                + options.mode().label() + ")";
        HtmlReport.write(options.outputDir().resolve("report.html"), title, facts, runs);
        if (options.comparing()) {
            String table = ComparisonTable.text(runs);
            writeString(options.outputDir().resolve("comparison.txt"), table);
            writeString(options.outputDir().resolve("comparison.md"), ComparisonTable.markdown(runs));
            out.print(table);
        } else {
            out.print(SummaryWriter.text(facts(options, trace, runs.get(0).label()), runs.get(0)));
        }
        out.println("results in " + options.outputDir().toAbsolutePath());
        return runs;
    }

    /** Writes one run's files into {@code dir}. */
    public static void writeRun(Path dir, Map<String, String> facts, SimulationRun run) {
        JobCsvWriter.write(dir.resolve("jobs.csv"), run.outcomes());
        TimelineCsvWriter.write(dir.resolve("timeline.csv"), run.timeline());
        writeString(dir.resolve("summary.json"), SummaryWriter.json(facts, run));
        writeString(dir.resolve("summary.txt"), SummaryWriter.text(facts, run));
    }

    private static Map<String, String> facts(SimulationOptions options, Trace trace, String policy) {
        Map<String, String> facts = new LinkedHashMap<>();
        if (policy != null) {
            facts.put("policy", policy);
        }
        facts.put("trace", trace.name() + " (" + trace.size() + " jobs)");
        facts.put("cluster", options.cluster() + " (" + options.cluster().totalGpus() + " GPUs)");
        facts.put("model", options.mode().label());
        facts.put("seed", Long.toString(options.seed()));
        if (!options.params().isEmpty()) {
            facts.put("params", options.params().toString());
        }
        return facts;
    }

    private static void mkdirs(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir + ": " + e.getMessage(), e);
        }
    }

    private static void writeString(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
