package io.quanta.sim.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quanta.sim.testing.Traces;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --bounds-only}: the bounds of the real inputs without a simulation, with the runs a finished suite kept. */
class SuiteMainBoundsTest {

    @Test
    void shouldParseTheFlag() {
        assertThat(SuiteMain.parse(new String[] {"--philly", "p", "--alibaba", "a", "--bounds-only"}).boundsOnly())
                .isTrue();
        assertThat(SuiteMain.parse(new String[] {"--philly", "p", "--alibaba", "a"}).boundsOnly()).isFalse();
    }

    @Test
    void shouldPrintTheBoundsOfTheRealInputsWithTheRunsOfAFinishedSuite(@TempDir Path dir) throws Exception {
        Optional<Path> philly = Traces.shared("philly_dev.csv");
        Optional<Path> alibaba = Traces.shared("alibaba_openb2023_lastweek.csv");
        assumeTrue(philly.isPresent() && alibaba.isPresent(), "needs ../shared/traces");
        Path kept = dir.resolve("realistic").resolve("w01-heavy");
        Files.createDirectories(kept.resolve("tiresias-las"));
        Files.createDirectories(kept.resolve("quanta"));
        new RunResult(23_541, 1e5, 0.3, 0, 0, 1, 1, 1).write(kept.resolve("tiresias-las").resolve("result.properties"));
        new RunResult(23_316, 1e5, 0.1, 0, 0, 1, 1, 1).write(kept.resolve("quanta").resolve("result.properties"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int status = SuiteMain.run(new String[] {"--philly", philly.get().toString(), "--alibaba",
            alibaba.get().toString(), "--inputs", "w01-heavy,alibaba-heavy", "--bounds-only", "--reuse",
            dir.toString(), "--out", dir.resolve("never").toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(text).contains("# Bounds, realistic model", "## check half (2 inputs)")
                .containsPattern("\\| w01-heavy \\| 3x12x8 \\(288\\) \\| 21,707 \\| [0-9,]+ \\| [0-9,]+ \\| 23,541 \\|"
                        + " 23,316 \\| ")
                .containsPattern("\\| alibaba-heavy \\| 1x2x8 \\(16\\) \\| 3,816 \\| [0-9,]+ \\| [0-9,]+ \\| \\| \\|");
        assertThat(dir.resolve("never")).doesNotExist();
    }
}
