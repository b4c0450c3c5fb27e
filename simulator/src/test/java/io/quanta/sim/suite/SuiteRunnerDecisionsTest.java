package io.quanta.sim.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.sim.Simulator;
import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.engine.EngineSettings;
import io.quanta.sim.engine.FidelityMode;
import io.quanta.sim.testing.Traces;
import io.quanta.sim.topology.TopologyScheduler;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A kept run is read back as a column only when this build's column of that label decides as the one that wrote it
 * ({@link DecisionFingerprint}): a label reused for another setting, or a directory of code that decides otherwise,
 * would put another policy's figures under the column's name.
 */
class SuiteRunnerDecisionsTest {

    private static final SuiteInput INPUT = new SuiteInput("w00-heavy", Half.TUNING, Traces.of(
            IntStream.range(0, 40).mapToObj(i -> "j" + i + "," + (30 * i) + "," + (i % 5 == 0 ? 4 : 1) + ","
                    + (200 + 97 * (i % 7))).toArray(String[]::new)), ClusterShape.parse("1x1x8"), "heavy", 2.5, 1);
    private static final Simulator SIMULATOR =
            new Simulator(TopologyScheduler::create, EngineSettings.defaults(), System::nanoTime);

    @TempDir
    Path dir;

    private final ByteArrayOutputStream log = new ByteArrayOutputStream();

    private Map<String, RunResult> run(Path out, boolean resume, List<Path> reuse, String... specs) {
        return new SuiteRunner(SIMULATOR, FidelityMode.REALISTIC, out, resume, reuse, 1,
                new PrintStream(log, true, StandardCharsets.UTF_8))
                .run(List.of(INPUT), List.of(specs).stream().map(RunSpec::parse).toList()).get(INPUT.id());
    }

    private static Path file(Path out, String label) {
        return out.resolve(INPUT.id()).resolve(label).resolve(SuiteRunner.RESULT_FILE);
    }

    @Test
    void shouldKeepWhatTheColumnDecidesInEveryRunItWrites() {
        Path out = dir.resolve("out");

        run(out, false, List.of(), "quanta", "q=quanta:quanta.ranking=las");

        assertThat(RunResult.Stored.read(file(out, "quanta")).decisions())
                .contains(DecisionFingerprint.of(SIMULATOR, FidelityMode.REALISTIC, Map.of("policy", "quanta")));
        assertThat(RunResult.Stored.read(file(out, "q")).decisions()).contains(DecisionFingerprint.of(SIMULATOR,
                FidelityMode.REALISTIC, Map.of("policy", "quanta", "quanta.ranking", "las")));
        assertThat(RunResult.Stored.read(file(out, "q")).decisions())
                .isNotEqualTo(RunResult.Stored.read(file(out, "quanta")).decisions());
    }

    @Test
    void shouldProbeEachColumnOnceWhateverHowOftenItsDigestIsAskedFor() {
        DecisionFingerprint.Memo memo = new DecisionFingerprint.Memo(SIMULATOR, FidelityMode.REALISTIC);
        Map<String, String> quanta = Map.of("policy", "quanta");

        String first = memo.of(quanta);

        assertThat(memo.of(new TreeMap<>(quanta))).isSameAs(first);
        assertThat(first).isEqualTo(DecisionFingerprint.of(SIMULATOR, FidelityMode.REALISTIC, quanta));
    }

    @Test
    void shouldReadBackARunWhoseColumnDecidesAlike() {
        Path out = dir.resolve("out");
        Map<String, RunResult> first = run(out, false, List.of(), "q=quanta:quanta.ranking=las");

        Map<String, RunResult> again = run(dir.resolve("other"), false, List.of(out), "q=quanta:quanta.ranking=las");

        assertThat(again).isEqualTo(first);
        assertThat(log.toString(StandardCharsets.UTF_8)).contains("(read from " + out + ")");
    }

    @Test
    void shouldRefuseARunThatAColumnOfOtherParametersWroteUnderTheSameLabel() {
        Path out = dir.resolve("out");
        run(out, false, List.of(), "q=quanta:quanta.ranking=las");

        assertThatThrownBy(() -> run(out, true, List.of(), "q=quanta"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(file(out, "q") + " was made by code or parameters that decide otherwise than"
                        + " this build's column q {policy=quanta}")
                .hasMessageContaining("run the column under another label, or remove the file");
        assertThatThrownBy(() -> run(dir.resolve("other"), false, List.of(out), "q=quanta"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining(file(out, "q").toString());
    }

    @Test
    void shouldRefuseAForgedDigestOfAnySizeOnOneShortLine() throws Exception {
        Path out = dir.resolve("out");
        run(out, false, List.of(), "quanta");
        Path file = file(out, "quanta");
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        p.setProperty(RunResult.DECISIONS, "forged\nline " + "f".repeat(100_000));
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            p.store(w, null);
        }

        assertThatThrownBy(() -> run(out, true, List.of(), "quanta"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("(decisions forged line fff")
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(1_000).doesNotContain("\n"));
    }

    @Test
    void shouldRefuseThroughTheSuitesCommandWithAReasonAndTheExitStatusOfAFailedRun() throws Exception {
        Path heldBack = SuiteHeldBackTest.heldBackFile(dir.resolve("period-a.csv"), i -> null);
        Path out = dir.resolve("suite");
        String[] first = {"--held-back", heldBack.toString(), "--half", "held-back", "--inputs",
            "period-a-w00-moderate", "--run", "tiresias-las", "--run", "quanta=quanta:quanta.ranking=las",
            "--out", out.toString()};
        assertThat(SuiteMain.run(first, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))).isZero();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();

        int status = SuiteMain.run(new String[] {"--held-back", heldBack.toString(), "--half", "held-back",
            "--inputs", "period-a-w00-moderate", "--run", "tiresias-las", "--run", "quanta", "--resume",
            "--out", out.toString()}, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(stderr, true, StandardCharsets.UTF_8));

        assertThat(status).isEqualTo(1);
        assertThat(stderr.toString(StandardCharsets.UTF_8)).contains("suite: ")
                .contains("decide otherwise than this build's column quanta {policy=quanta}");

        // --bounds-only reads the same two columns' figures, under the same guard
        ByteArrayOutputStream boundsErr = new ByteArrayOutputStream();

        assertThat(bounds(heldBack, out, boundsErr)).isEqualTo(1);
        assertThat(boundsErr.toString(StandardCharsets.UTF_8))
                .contains("decide otherwise than this build's column quanta {policy=quanta}");
    }

    @Test
    void shouldRefuseAMalformedKeptRunWithItsPathAndNoStackTraceWhenRunningAndInTheBounds() throws Exception {
        Path heldBack = SuiteHeldBackTest.heldBackFile(dir.resolve("period-a.csv"), i -> null);
        Path reuse = dir.resolve("kept");
        Path file = reuse.resolve("realistic").resolve("period-a-w00-moderate").resolve("tiresias-las")
                .resolve(SuiteRunner.RESULT_FILE);
        Files.createDirectories(file.getParent());
        Files.writeString(file, "avg_jct_s=12\np99_jct_s=x\n");

        for (String mode : List.of("--run", "--bounds-only")) {
            ByteArrayOutputStream stderr = new ByteArrayOutputStream();
            List<String> args = new ArrayList<>(List.of("--held-back", heldBack.toString(), "--half",
                    "held-back", "--inputs", "period-a-w00-moderate", "--reuse", reuse.toString(), "--out",
                    dir.resolve("suite").toString(), mode));
            if (mode.equals("--run")) {
                args.add("tiresias-las");
            }

            int status = SuiteMain.run(args.toArray(String[]::new),
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                    new PrintStream(stderr, true, StandardCharsets.UTF_8));

            assertThat(status).as(mode).isEqualTo(1);
            assertThat(stderr.toString(StandardCharsets.UTF_8)).as(mode)
                    .startsWith("suite: malformed run result " + file).doesNotContain("\tat ");
        }
    }

    /** {@code --bounds-only --resume} on one input of the held-back file, its status. */
    private static int bounds(Path heldBack, Path out, ByteArrayOutputStream stderr) {
        return SuiteMain.run(new String[] {"--held-back", heldBack.toString(), "--half", "held-back",
            "--inputs", "period-a-w00-moderate", "--bounds-only", "--resume", "--out", out.toString()},
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(stderr, true, StandardCharsets.UTF_8));
    }
}
