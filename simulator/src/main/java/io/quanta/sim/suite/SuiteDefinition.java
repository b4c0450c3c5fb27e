package io.quanta.sim.suite;

import io.quanta.sim.trace.Trace;
import io.quanta.sim.trace.TraceLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The fixed inputs of the evaluation suite ({@code simulator/evaluate.sh --suite}; {@code docs/evaluation.md} states
 * the same rules):
 * <ul>
 *   <li>{@value #WINDOWS} windows of {@value #WINDOW_JOBS} consecutive jobs of {@code philly_dev.csv}, spread evenly
 *       from its first job to its last (window {@code k} starts at job {@code k x floor((jobs - 2000) / 15)}), each
 *       at its heavy and at its moderate size ({@link LoadRule}), seed 1;</li>
 *   <li>seeds 2 and 3 of the model mix on the heavy size of windows 0, 1, 2 and 3;</li>
 *   <li>{@code alibaba_openb2023_lastweek.csv} whole, at its heavy and moderate sizes, seed 1.</li>
 * </ul>
 * <b>Halves</b>, fixed before any policy change: window {@code k} is a tuning window when {@code k} is even, a check
 * window when it is odd, except that a window sharing more than a tenth of its jobs with an input the earlier quanta
 * defaults were tuned on (jobs {@value #EARLIER_TUNING_A_FIRST}-{@value #EARLIER_TUNING_A_LAST} and the developers'
 * slice, jobs {@value #EARLIER_TUNING_B_FIRST}-{@value #EARLIER_TUNING_B_LAST}) is a tuning window; every input of a
 * window (both sizes, every seed) is in the window's half. The Alibaba inputs are check inputs: a trace of another cluster that no
 * default was ever chosen on.
 */
public final class SuiteDefinition {

    /** Number of Philly windows. */
    public static final int WINDOWS = 16;
    /** Jobs per window. */
    public static final int WINDOW_JOBS = 2_000;
    /** Windows that also run with seeds 2 and 3 (heavy size). */
    public static final List<Integer> SEEDED_WINDOWS = List.of(0, 1, 2, 3);
    /** Extra seeds of the model mix. */
    public static final List<Long> EXTRA_SEEDS = List.of(2L, 3L);
    /** Longest file-name word of a held-back input's id (the ids name directories). */
    static final int MAX_PREFIX_CHARS = 40;
    static final int EARLIER_TUNING_A_FIRST = 46_000;
    static final int EARLIER_TUNING_A_LAST = 47_999;
    static final int EARLIER_TUNING_B_FIRST = 50_500;
    static final int EARLIER_TUNING_B_LAST = 52_499;

    private SuiteDefinition() {
    }

    /** Every input, Philly windows first (window by window: heavy, extra seeds, moderate), then Alibaba. */
    public static List<SuiteInput> standard(Path phillyDev, Path alibaba) {
        List<SuiteInput> inputs = new ArrayList<>(phillyWindows(TraceLoader.load(phillyDev)));
        inputs.addAll(whole("alibaba", TraceLoader.load(alibaba), Half.CHECK));
        return inputs;
    }

    /** The window inputs of the full Philly trace. */
    public static List<SuiteInput> phillyWindows(Trace full) {
        int step = step(full);
        List<SuiteInput> inputs = new ArrayList<>();
        for (int k = 0; k < WINDOWS; k++) {
            int first = k * step;
            Trace window = full.window(first, WINDOW_JOBS);
            Half half = halfOf(k, first);
            LoadRule.Choice choice = LoadRule.choose(window);
            String id = String.format(Locale.ROOT, "w%02d", k);
            inputs.add(new SuiteInput(id + "-heavy", half, window, choice.heavy(), "heavy",
                    choice.ratioAt(choice.heavy()), 1));
            if (SEEDED_WINDOWS.contains(k)) {
                for (long seed : EXTRA_SEEDS) {
                    inputs.add(new SuiteInput(id + "-heavy-s" + seed, half, window, choice.heavy(), "heavy",
                            choice.ratioAt(choice.heavy()), seed));
                }
            }
            inputs.add(new SuiteInput(id + "-moderate", half, window, choice.moderate(), "moderate",
                    choice.ratioAt(choice.moderate()), 1));
        }
        return inputs;
    }

    /**
     * The windows halfway between the suite's own ({@code SuiteMain --between}, {@link Half#BETWEEN}): window
     * {@code bk} starts at job {@code k x step + step / 2} of the full trace ({@code step} as in
     * {@link #phillyWindows}), between windows {@code wk} and {@code wk+1}, for {@code k} from 0 to 14; each at its
     * heavy and moderate size ({@link LoadRule}), seed 1, as the held-back periods are cut. A window sharing more than
     * a tenth of its jobs with the inputs the earlier quanta defaults were tuned on is left out, by the rule that
     * puts such windows in the tuning half (on {@code philly_dev.csv}: {@code b13} and {@code b14}). Each window
     * shares {@code 2000 - step / 2} jobs with the suite window before it and {@code 2000 - (step - step / 2)} with
     * the one after it (306 and 305 on {@code philly_dev.csv}); the other 1,389 are in no input of the suite.
     *
     * @throws IllegalArgumentException when the trace is shorter than the suite's windows need
     */
    public static List<SuiteInput> between(Trace full) {
        int step = step(full);
        List<SuiteInput> inputs = new ArrayList<>();
        for (int k = 0; k < WINDOWS - 1; k++) {
            int first = k * step + step / 2;
            if (!sharesEarlierTuning(first)) {
                inputs.addAll(whole(String.format(Locale.ROOT, "b%02d", k), full.window(first, WINDOW_JOBS),
                        Half.BETWEEN));
            }
        }
        return inputs;
    }

    /** Jobs between the starts of two of the suite's windows of {@code full}. */
    private static int step(Trace full) {
        if (full.size() < WINDOWS * WINDOW_JOBS / 2) {
            throw new IllegalArgumentException("trace " + full.name() + " has " + full.size() + " jobs; the suite's "
                    + WINDOWS + " windows of " + WINDOW_JOBS + " need the whole philly_dev.csv");
        }
        return (full.size() - WINDOW_JOBS) / (WINDOWS - 1);
    }

    /**
     * The inputs of a held-back trace (a Philly-format file outside this repository, {@code SuiteMain --held-back}):
     * {@code k = min(16, jobs / 2000)} windows of {@value #WINDOW_JOBS} consecutive jobs spread evenly from its first
     * job to its last (window {@code i} starts at job {@code i x floor((jobs - 2000) / (k - 1))}, so they never
     * overlap), each at its heavy and moderate size ({@link LoadRule}), seed 1, as the held-back figures were
     * taken; every input in the {@link Half#HELD_BACK} half. The ids are the file's name (lower case, other characters
     * as '-') and the window, e.g. {@code philly-2018q1-w03-heavy}, so the results of two files never mix under one
     * {@code --out}.
     *
     * @throws IllegalArgumentException when the trace has fewer than {@value #WINDOW_JOBS} jobs
     */
    public static List<SuiteInput> heldBack(Trace full, String fileName) {
        int windows = Math.min(WINDOWS, full.size() / WINDOW_JOBS);
        if (windows == 0) {
            throw new IllegalArgumentException("held-back trace " + fileName + " has " + full.size()
                    + " jobs; a window needs " + WINDOW_JOBS);
        }
        int step = windows == 1 ? 0 : (full.size() - WINDOW_JOBS) / (windows - 1);
        String prefix = idPrefix(fileName);
        List<SuiteInput> inputs = new ArrayList<>();
        for (int k = 0; k < windows; k++) {
            inputs.addAll(whole(String.format(Locale.ROOT, "%s-w%02d", prefix, k), full.window(k * step, WINDOW_JOBS),
                    Half.HELD_BACK));
        }
        return inputs;
    }

    /** A file name as an input id's first word: its stem in lower case, runs of other characters as one '-'. */
    static String idPrefix(String fileName) {
        String stem = fileName.replaceFirst("\\.[A-Za-z0-9]+$", "").toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9]+", "-");
        stem = stem.substring(0, Math.min(stem.length(), MAX_PREFIX_CHARS)).replaceAll("^-+|-+$", "");
        return stem.isEmpty() ? "held-back" : stem;
    }

    /** A whole trace at its heavy and moderate sizes, seed 1. */
    public static List<SuiteInput> whole(String name, Trace trace, Half half) {
        LoadRule.Choice choice = LoadRule.choose(trace);
        return List.of(new SuiteInput(name + "-heavy", half, trace, choice.heavy(), "heavy",
                        choice.ratioAt(choice.heavy()), 1),
                new SuiteInput(name + "-moderate", half, trace, choice.moderate(), "moderate",
                        choice.ratioAt(choice.moderate()), 1));
    }

    /** The half of window {@code k} that starts at job {@code first}. */
    static Half halfOf(int k, int first) {
        return k % 2 == 0 || sharesEarlierTuning(first) ? Half.TUNING : Half.CHECK;
    }

    /**
     * True when the window that starts at job {@code first} shares more than a tenth of its jobs with the inputs the
     * earlier quanta defaults were tuned on.
     */
    static boolean sharesEarlierTuning(int first) {
        int last = first + WINDOW_JOBS - 1;
        int shared = shared(first, last, EARLIER_TUNING_A_FIRST, EARLIER_TUNING_A_LAST)
                + shared(first, last, EARLIER_TUNING_B_FIRST, EARLIER_TUNING_B_LAST);
        return shared * 10 > WINDOW_JOBS;
    }

    /** Jobs in both ranges (inclusive bounds). */
    private static int shared(int a0, int a1, int b0, int b1) {
        return Math.max(0, Math.min(a1, b1) - Math.max(a0, b0) + 1);
    }
}
