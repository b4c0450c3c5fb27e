package io.quanta.sim.suite;

import io.quanta.sim.Simulator;
import io.quanta.sim.engine.EngineParams;
import io.quanta.sim.engine.EngineSettings;
import io.quanta.sim.engine.FidelityMode;
import io.quanta.sim.topology.TopologyScheduler;
import io.quanta.sim.trace.TraceLoader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The evaluation suite ({@code simulator/evaluate.sh --suite}): runs the {@link SuiteDefinition} inputs with each run
 * and prints the {@link SuiteTable}, also written to {@code OUT/MODEL/suite.md}, each half followed by its
 * {@link BoundsTable}. With {@code --bounds-only} it runs nothing: it prints the {@link BoundsTable} of every input,
 * with the baseline's and {@value BoundsTable#RUN}'s figures where a {@code --reuse} directory (or, with
 * {@code --resume}, {@code OUT}) has them.
 * <pre>
 * java -cp ... io.quanta.sim.suite.SuiteMain --philly FILE --alibaba FILE [--out DIR] [--model MODE]
 *     [--run LABEL=POLICY[:k=v,...]]... [--half tuning|check|held-back|between|all] [--inputs ID,...]
 *     [--resume]
 *     [--reuse DIR2]...
 *     [--threads N] [--shift S | --shifts S1,S2,...] [--list] [--bounds-only] [--held-back FILE | --between]
 * </pre>
 * {@code --held-back FILE} runs the windows of a Philly-format trace kept outside this repository instead of the
 * suite's inputs ({@link SuiteDefinition#heldBack}), all in the held-back half: the check that what the tuning and
 * check halves say holds on periods no one has looked at. {@code --philly} and {@code --alibaba} are then not read.
 * {@code --between} runs the windows of {@code --philly} halfway between the suite's own instead
 * ({@link SuiteDefinition#between}), all in the between half; {@code --alibaba} is then not read.
 * {@code --shift S} submits every job {@code S} seconds later. The scheduler runs a pass at most every 10 s of stream
 * time ({@code scheduler.pass.interval.ms}), so where the submit times fall against that grid changes which jobs one
 * pass sees together: a run at a shift of a few seconds is the same input at another phase, and the spread of a
 * policy's figures over shifts is the part of them that is chance. Its results go under {@code OUT/MODEL-shift-S}
 * (and {@code --reuse} and {@code --resume} read only from there), so that they never mix with unshifted ones.
 * {@code --shifts S1,S2,...} runs each shift in turn and then prints the {@link PhaseTable}: every run at every shift,
 * and its score over them (also written to {@code OUT/MODEL-phases-S1-S2-....md}).
 * Exit status 0 on success, 2 on a usage error, 1 when a run fails.
 */
public final class SuiteMain {

    /** Runs when no {@code --run} is given. */
    public static final List<String> DEFAULT_RUNS = List.of("tiresias-las", "tiresias-gittins", "srtf-oracle",
            "quanta");

    /**
     * Most shifts one {@code --shifts} takes: passes run every 10 s of stream time, so shifts that differ by a
     * multiple of 10 s are the same phase (and a long list would only multiply the runs, and the table's file name).
     */
    static final int MAX_SHIFTS = 10;

    /** The usage text. */
    public static final String USAGE = """
            usage: suite --philly FILE --alibaba FILE [options]
                   suite --held-back FILE [options]
                   suite --philly FILE --between [options]
              --philly FILE        philly_dev.csv (the whole trace: the windows are cut from it)
              --alibaba FILE       alibaba_openb2023_lastweek.csv
              --out DIR            results under DIR/MODEL/INPUT/LABEL (default eval-out/suite)
              --model MODE         fidelity mode or model variant (default realistic)
              --run SPEC           a column: POLICY, or LABEL=POLICY[:key=value,...]; repeatable (the same
                                   column given twice runs once; one label for two columns is refused)
                                   (default tiresias-las, tiresias-gittins, srtf-oracle, quanta)
              --half H             tuning, check, held-back, between or all (default all)
              --inputs ID,...      only these inputs
              --resume             read back runs already in DIR instead of running them again
              --reuse DIR2         read runs found in DIR2/MODEL/INPUT/LABEL instead of running them; repeatable
                                   (runs read back that another build wrote are named, per label, at the end)
              --threads N          simulations at once (default 1)
              --shift S            submit every job S seconds later (0 to 86400, default 0): the same input at
                                   another phase of the 10 s scheduling quantum; results under OUT/MODEL-shift-S
              --shifts S1,S2,...   run at each of these shifts (at most 10) in turn, then print each run's score
                                   over them (each input's gap closed averaged over the shifts) against quanta's,
                                   and per shift the inputs whose p99 is above tiresias-las's and the paired
                                   interval against quanta
              --list               print the inputs and exit
              --bounds-only        print each input's floor, lower bound and ideal schedule without running
                                   anything (with the runs --reuse or --resume finds) and exit
              --held-back FILE     instead of the suite's inputs, windows of this Philly-format trace kept
                                   outside the repository (up to 16 of 2,000 jobs, heavy and moderate, seed 1;
                                   ids start with the file's name); --philly and --alibaba are then not needed
              --between            instead of the suite's inputs, the windows of --philly halfway between its
                                   windows (b00 to b12, heavy and moderate, seed 1: most of their jobs are in no
                                   input of either half); --alibaba is then not needed
            """;

    private SuiteMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Parsed flags. */
    record Options(Path philly, Path alibaba, Path out, FidelityMode mode, List<RunSpec> runs, String half,
                   Set<String> inputs, boolean resume, List<Path> reuse, int threads, boolean list,
                   boolean boundsOnly, List<Long> shifts, Path heldBack, boolean between) {

        /** The inputs these options name, before {@code --half} and {@code --inputs} select among them. */
        List<SuiteInput> allInputs() {
            if (between) {
                return SuiteDefinition.between(TraceLoader.load(philly));
            }
            return heldBack == null ? SuiteDefinition.standard(philly, alibaba)
                    : SuiteDefinition.heldBack(TraceLoader.load(heldBack), heldBack.getFileName().toString());
        }

        /** The first (with {@code --shift}, the only) shift. */
        long shift() {
            return shifts.get(0);
        }

        /** The directory name of this model's results at the first shift. */
        String modelDir() {
            return modelDir(shift());
        }

        /** The directory name of this model's results at {@code shift}: the model, and the shift when there is one. */
        String modelDir(long shift) {
            return shift == 0 ? mode.label() : mode.label() + "-shift-" + shift;
        }
    }

    /** Parses, runs and returns the exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Options options;
        List<SuiteInput> unshifted;
        try {
            options = parse(args);
            unshifted = select(options.allInputs(), options);
        } catch (IllegalArgumentException e) {
            err.println("suite: " + e.getMessage());
            err.print(USAGE);
            return 2;
        } catch (UncheckedIOException e) {
            err.println("suite: " + e.getMessage());
            return 1;
        }
        List<SuiteInput> first = shifted(unshifted, options.shift());
        if (options.list()) {
            out.print(listing(first));
            return 0;
        }
        if (options.boundsOnly()) {
            Path dir = options.out().resolve(options.modelDir());
            List<Path> reuse = options.reuse().stream().map(p -> p.resolve(options.modelDir())).toList();
            try {
                out.print(boundsOnly(options, first, options.resume() ? concat(dir, reuse) : reuse,
                        new DecisionFingerprint.Memo(simulator(), options.mode())));
            } catch (UncheckedIOException | RunResult.Malformed | IllegalStateException e) {
                err.println("suite: " + e.getMessage());
                return 1;
            }
            return 0;
        }
        try {
            List<PhaseTable.Phase> phases = new ArrayList<>();
            Simulator simulator = simulator();
            // one memo for every shift: each column is probed once per model, not once per shift
            DecisionFingerprint.Memo decisions = new DecisionFingerprint.Memo(simulator, options.mode());
            for (long shift : options.shifts()) {
                phases.add(new PhaseTable.Phase(shift, runShift(options, shifted(unshifted, shift), shift, simulator,
                        decisions, out, err)));
            }
            if (phases.size() > 1) {
                List<String> labels = options.runs().stream().map(RunSpec::label).toList();
                String table = PhaseTable.markdown("Suite, " + options.mode().label() + " model, over the shifts "
                        + options.shifts(), unshifted, phases, labels);
                Path file = options.out().resolve(options.mode().label() + "-phases-" + options.shifts().stream()
                        .map(String::valueOf).collect(Collectors.joining("-")) + ".md");
                Files.createDirectories(options.out());
                Files.writeString(file, table, StandardCharsets.UTF_8);
                out.print("\n" + table);
            }
            return 0;
        } catch (IOException e) {
            err.println("suite: " + e.getMessage());
            return 1;
        } catch (UncheckedIOException | RunResult.Malformed | IllegalStateException e) {
            // a kept run that is malformed or of other code: its reason, not a stack trace
            err.println("suite: " + e.getMessage());
            return 1;
        }
    }

    /** The simulator every run and probe of one invocation shares. */
    private static Simulator simulator() {
        return new Simulator(TopologyScheduler::create, EngineSettings.defaults(), System::nanoTime);
    }

    private static List<SuiteInput> shifted(List<SuiteInput> inputs, long shift) {
        return inputs.stream().map(i -> i.shifted(shift)).toList();
    }

    /** Runs {@code inputs} (already shifted by {@code shift}), prints and writes the table, returns the results. */
    private static Map<String, Map<String, RunResult>> runShift(Options options, List<SuiteInput> inputs, long shift,
                                                                Simulator simulator, DecisionFingerprint.Memo decisions,
                                                                PrintStream out, PrintStream err)
            throws IOException {
        Path dir = options.out().resolve(options.modelDir(shift));
        List<Path> reuse = options.reuse().stream().map(p -> p.resolve(options.modelDir(shift))).toList();
        long start = System.nanoTime();
        Map<String, Map<String, RunResult>> results = new SuiteRunner(simulator, options.mode(), dir,
                options.resume(), reuse, options.threads(), err, decisions).run(inputs, options.runs());
        List<String> labels = options.runs().stream().map(RunSpec::label).toList();
        String title = "Suite, " + options.mode().label() + " model"
                + (shift == 0 ? "" : ", submit times shifted " + shift + " s");
        // each shift's own bounds: the relaxations' numbers move by a few seconds with the submit times' phase
        String table = SuiteTable.markdown(title, inputs, results, labels,
                InputBounds.of(inputs, options.mode(), options.threads()));
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("suite.md"), table, StandardCharsets.UTF_8);
        out.print(table);
        out.printf(Locale.ROOT, "%nwall time %.0f s; results in %s%n", (System.nanoTime() - start) / 1e9,
                dir.toAbsolutePath());
        return results;
    }

    /** The bounds of {@code inputs} with the baseline's and {@value BoundsTable#RUN}'s runs kept in {@code dirs}. */
    private static String boundsOnly(Options options, List<SuiteInput> inputs, List<Path> dirs,
                                     DecisionFingerprint.Memo decisions) {
        Map<String, Map<String, RunResult>> results = new LinkedHashMap<>();
        for (SuiteInput input : inputs) {
            for (String label : List.of(SuiteTable.BASELINE, BoundsTable.RUN)) {
                SuiteRunner.keptFile(dirs, input.id(), label).ifPresent(file -> {
                    RunResult.Stored stored = RunResult.Stored.read(file);
                    // the same guard as the runs' (SuiteRunner): a kept run of other code does not stand for the label
                    SuiteRunner.requireSameDecisions(file, stored, RunSpec.of(label), decisions);
                    results.computeIfAbsent(input.id(), k -> new LinkedHashMap<>()).put(label, stored.result());
                });
            }
        }
        return BoundsTable.markdown("Bounds, " + options.mode().label() + " model", inputs,
                InputBounds.of(inputs, options.mode(), options.threads()), results);
    }

    private static List<Path> concat(Path first, List<Path> rest) {
        List<Path> all = new ArrayList<>(List.of(first));
        all.addAll(rest);
        return all;
    }

    /** One line per input: id, half, jobs, cluster, fifo's queueing ratio, floor. */
    static String listing(List<SuiteInput> inputs) {
        StringBuilder out = new StringBuilder("| input | half | jobs | cluster | fifo queue / service | floor s |\n"
                + "|---|---|---|---|---|---|\n");
        for (SuiteInput i : inputs) {
            out.append(String.format(Locale.ROOT, "| %s | %s | %s | %s (%d GPUs) | %.2f | %,.0f |%n", i.id(),
                    i.half().label(), i.trace().name(), i.cluster(), i.cluster().totalGpus(), i.fifoRatio(),
                    i.floorSeconds()));
        }
        return out.toString();
    }

    private static List<SuiteInput> select(List<SuiteInput> all, Options options) {
        List<SuiteInput> out = new ArrayList<>();
        for (SuiteInput input : all) {
            boolean halfOk = options.half().equals("all") || input.half().label().equals(options.half());
            boolean idOk = options.inputs().isEmpty() || options.inputs().contains(input.id());
            if (halfOk && idOk) {
                out.add(input);
            }
        }
        if (!options.inputs().isEmpty()) {
            Set<String> unknown = new LinkedHashSet<>(options.inputs());
            all.forEach(i -> unknown.remove(i.id()));
            if (!unknown.isEmpty()) {
                throw new IllegalArgumentException("unknown inputs " + unknown);
            }
        }
        if (out.isEmpty()) {
            // e.g. --half tuning with --held-back, whose inputs are all in the held-back half: nothing would run
            throw new IllegalArgumentException("no input is in half '" + options.half() + "'"
                    + (options.inputs().isEmpty() ? "" : " among " + options.inputs()));
        }
        return out;
    }

    /**
     * Parses the flags.
     *
     * @throws IllegalArgumentException naming the bad flag or value
     */
    static Options parse(String[] args) {
        Path philly = null;
        Path alibaba = null;
        Path out = Path.of("eval-out", "suite");
        FidelityMode mode = FidelityMode.REALISTIC;
        List<RunSpec> runs = new ArrayList<>();
        String half = "all";
        Set<String> inputs = new LinkedHashSet<>();
        boolean resume = false;
        List<Path> reuse = new ArrayList<>();
        boolean list = false;
        boolean boundsOnly = false;
        int threads = 1;
        List<Long> shifts = new ArrayList<>();
        Path heldBack = null;
        boolean between = false;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            switch (flag) {
                case "--philly" -> philly = Path.of(value(args, ++i, flag));
                case "--alibaba" -> alibaba = Path.of(value(args, ++i, flag));
                case "--out" -> out = Path.of(value(args, ++i, flag));
                case "--model" -> mode = FidelityMode.parse(value(args, ++i, flag));
                case "--run" -> {
                    RunSpec spec = RunSpec.parse(value(args, ++i, flag));
                    // the same column twice (evaluate.sh --suite adds its own, a user may name them again) runs once
                    if (!runs.contains(spec)) {
                        runs.add(spec);
                    }
                }
                case "--half" -> {
                    half = value(args, ++i, flag);
                    List<String> halves = new ArrayList<>(Arrays.stream(Half.values()).map(Half::label).toList());
                    halves.add("all");
                    if (!halves.contains(half)) {
                        throw new IllegalArgumentException("--half must be " + String.join(", ", halves) + ", got '"
                                + half + "'");
                    }
                }
                case "--inputs" -> Arrays.stream(value(args, ++i, flag).split(",")).map(String::trim)
                        .filter(s -> !s.isEmpty()).forEach(inputs::add);
                case "--resume" -> resume = true;
                case "--reuse" -> reuse.add(Path.of(value(args, ++i, flag)));
                case "--list" -> list = true;
                case "--bounds-only" -> boundsOnly = true;
                case "--held-back" -> heldBack = Path.of(value(args, ++i, flag));
                case "--between" -> between = true;
                case "--threads" -> {
                    try {
                        threads = Integer.parseInt(value(args, ++i, flag));
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--threads needs a number", e);
                    }
                    if (threads < 1) {
                        throw new IllegalArgumentException("--threads must be >= 1");
                    }
                }
                case "--shift", "--shifts" -> {
                    if (!shifts.isEmpty()) {
                        throw new IllegalArgumentException("give --shift or --shifts once");
                    }
                    for (String one : value(args, ++i, flag).split(",", -1)) {
                        long shift = shift(one.trim());
                        if (shifts.contains(shift)) {
                            throw new IllegalArgumentException("shift " + shift + " given twice");
                        }
                        shifts.add(shift);
                    }
                    if (flag.equals("--shift") && shifts.size() > 1) {
                        throw new IllegalArgumentException("--shift takes one shift; use --shifts for several");
                    }
                    if (shifts.size() > MAX_SHIFTS) {
                        throw new IllegalArgumentException("--shifts takes at most " + MAX_SHIFTS + " shifts: the"
                                + " scheduling quantum is 10 s, so more cannot be more phases");
                    }
                }
                default -> throw new IllegalArgumentException("unknown option '" + flag + "'");
            }
        }
        if (between && heldBack != null) {
            throw new IllegalArgumentException("give --held-back or --between, not both");
        }
        if (between && philly == null) {
            throw new IllegalArgumentException("--between needs --philly: its windows are cut from it");
        }
        if (!between && heldBack == null && (philly == null || alibaba == null)) {
            throw new IllegalArgumentException("--philly and --alibaba are required (or --held-back)");
        }
        if (runs.isEmpty()) {
            DEFAULT_RUNS.forEach(p -> runs.add(RunSpec.of(p)));
        }
        Set<String> labels = new LinkedHashSet<>();
        for (RunSpec spec : runs) {
            if (!labels.add(spec.label())) {
                throw new IllegalArgumentException("run label '" + spec.label() + "' given twice");
            }
            try {
                EngineParams.validate(spec.policyParams());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("run " + spec.label() + ": " + e.getMessage(), e);
            }
            if (!io.quanta.core.policy.PolicyRegistry.builtIn().names().contains(spec.policy())) {
                throw new IllegalArgumentException("run " + spec.label() + ": unknown policy '" + spec.policy() + "'");
            }
        }
        if (!labels.contains(SuiteTable.BASELINE)) {
            throw new IllegalArgumentException("the runs must include " + SuiteTable.BASELINE
                    + ": gap closed is measured against it");
        }
        if (shifts.isEmpty()) {
            shifts.add(0L);
        }
        if (shifts.size() > 1 && (list || boundsOnly)) {
            throw new IllegalArgumentException("--list and --bounds-only take one --shift, not --shifts");
        }
        return new Options(philly, alibaba, out, mode, List.copyOf(runs), half, inputs, resume, List.copyOf(reuse),
                threads, list, boundsOnly, List.copyOf(shifts), heldBack, between);
    }

    private static long shift(String text) {
        long shift;
        try {
            shift = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--shift needs a whole number of seconds", e);
        }
        if (shift < 0 || shift > 86_400) {
            throw new IllegalArgumentException("--shift must be 0 to 86400 s, got " + shift);
        }
        return shift;
    }

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length) {
            throw new IllegalArgumentException(flag + " needs a value");
        }
        return args[i];
    }
}
