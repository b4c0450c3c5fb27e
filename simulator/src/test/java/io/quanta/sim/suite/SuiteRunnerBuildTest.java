package io.quanta.sim.suite;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.sim.Simulator;
import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.engine.EngineSettings;
import io.quanta.sim.engine.FidelityMode;
import io.quanta.sim.testing.Traces;
import io.quanta.sim.topology.TopologyScheduler;
import io.quanta.streams.SoftwareVersion;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs read back with {@code --reuse} or {@code --resume} that another build wrote are named at the end of the run:
 * a label read from a directory of older code would otherwise stand for code that has changed since.
 */
class SuiteRunnerBuildTest {

    private static final SuiteInput INPUT = new SuiteInput("w00-heavy", Half.TUNING, Traces.of("j,0,1,100"),
            ClusterShape.parse("1x1x8"), "heavy", 2.5, 1);
    private static final RunResult FIGURES = new RunResult(100, 100, 0, 0, 0, 0, 0, 0.5);

    @TempDir
    Path dir;

    /** Keeps FIGURES as run {@code label} of {@code base}, written by {@code software} (null: not recorded). */
    private static void keep(Path base, String label, String software) throws IOException {
        Path file = base.resolve(INPUT.id()).resolve(label).resolve(SuiteRunner.RESULT_FILE);
        Files.createDirectories(file.getParent());
        FIGURES.write(file);
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        if (software == null) {
            p.remove(RunResult.SOFTWARE);
        } else {
            p.setProperty(RunResult.SOFTWARE, software);
        }
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            p.store(w, null);
        }
    }

    private String run(Path reuse, String... labels) {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        Simulator simulator = new Simulator(TopologyScheduler::create, EngineSettings.defaults(), System::nanoTime);
        Map<String, Map<String, RunResult>> results = new SuiteRunner(simulator, FidelityMode.REALISTIC,
                dir.resolve("out"), false, List.of(reuse), 1, new PrintStream(log, true, StandardCharsets.UTF_8))
                .run(List.of(INPUT), java.util.Arrays.stream(labels).map(RunSpec::of).toList());
        assertThat(results.get(INPUT.id())).containsOnlyKeys(labels);
        results.get(INPUT.id()).values().forEach(r -> assertThat(r).isEqualTo(FIGURES));
        return log.toString(StandardCharsets.UTF_8);
    }

    @Test
    void shouldRecordTheBuildInEveryResultFile() throws IOException {
        Path file = dir.resolve(SuiteRunner.RESULT_FILE);
        FIGURES.write(file);
        assertThat(RunResult.Stored.read(file).software()).contains(SoftwareVersion.current());
        assertThat(RunResult.read(file)).isEqualTo(FIGURES);
    }

    @Test
    void shouldPrintAForgedBuildTextOnOneShortLine() throws IOException {
        Path reuse = dir.resolve("forged");
        String forged = "x\n[9/9] w00-heavy quanta on 1x1x8: avg JCT 1 s (faked)\n" + "y".repeat(10_000);
        keep(reuse, "quanta", forged);

        String log = run(reuse, "quanta");

        assertThat(log.lines().filter(l -> l.startsWith("[9/9]"))).isEmpty();
        String note = log.lines().filter(l -> l.startsWith("note:")).findFirst().orElseThrow();
        assertThat(note).contains("written by x [9/9] w00-heavy quanta").contains("...)")
                .hasSizeLessThan(RunResult.SOFTWARE_MAX_CHARS + 400);
    }

    @Test
    void shouldNameRunsReadBackThatAnotherBuildWrote() throws IOException {
        Path reuse = dir.resolve("old");
        keep(reuse, "quanta", "0.0.1 (commit 0123456789ab)");
        keep(reuse, "fifo", null);
        keep(reuse, "tiresias-las", SoftwareVersion.current());

        String log = run(reuse, "tiresias-las", "quanta", "fifo");

        assertThat(log).contains("note: 1 run of quanta read from " + reuse
                + " (written by 0.0.1 (commit 0123456789ab)), not by this build (" + SoftwareVersion.current() + ")");
        assertThat(log).contains("note: 1 run of fifo read from " + reuse
                + " (written by a build that did not record its version)");
        assertThat(log).doesNotContain("of tiresias-las read");
    }

    @Test
    void shouldSayNothingWhenThisBuildWroteEveryRunReadBack() throws IOException {
        Path reuse = dir.resolve("same");
        keep(reuse, "quanta", SoftwareVersion.current());

        assertThat(run(reuse, "quanta")).doesNotContain("note:");
    }
}
