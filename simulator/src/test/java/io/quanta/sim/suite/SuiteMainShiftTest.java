package io.quanta.sim.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quanta.sim.testing.Traces;
import io.quanta.sim.trace.Trace;
import io.quanta.sim.trace.TraceJob;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --shift S}: the same inputs S seconds later, with results that never mix with unshifted ones. */
class SuiteMainShiftTest {

    private static final String[] TRACES = {"--philly", "p", "--alibaba", "a"};

    private static SuiteMain.Options parse(String... more) {
        String[] args = new String[TRACES.length + more.length];
        System.arraycopy(TRACES, 0, args, 0, TRACES.length);
        System.arraycopy(more, 0, args, TRACES.length, more.length);
        return SuiteMain.parse(args);
    }

    @Test
    void shouldParseTheShiftAndNameItsOwnDirectory() {
        assertThat(parse().shift()).isZero();
        assertThat(parse().modelDir()).isEqualTo("realistic");
        assertThat(parse("--shift", "5").shift()).isEqualTo(5);
        assertThat(parse("--shift", "5", "--model", "realistic-switch-x2").modelDir())
                .isEqualTo("realistic-switch-x2-shift-5");
        assertThat(parse("--shift", "0").modelDir()).isEqualTo("realistic");
    }

    @Test
    void shouldRejectABadShift() {
        assertThatThrownBy(() -> parse("--shift", "-1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--shift must be 0 to 86400");
        assertThatThrownBy(() -> parse("--shift", "86401")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--shift must be 0 to 86400");
        assertThatThrownBy(() -> parse("--shift", "5s")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("whole number of seconds");
        assertThatThrownBy(() -> parse("--shift")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--shift needs a value");
    }

    @Test
    void shouldParseSeveralShiftsEachWithItsOwnDirectory() {
        SuiteMain.Options options = parse("--shifts", "0,3, 5,7");
        assertThat(options.shifts()).containsExactly(0L, 3L, 5L, 7L);
        assertThat(options.modelDir(3)).isEqualTo("realistic-shift-3");
        assertThat(options.modelDir(0)).isEqualTo("realistic");
        assertThat(parse().shifts()).containsExactly(0L);
        assertThatThrownBy(() -> parse("--shifts", "0,3,3")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("shift 3 given twice");
        assertThatThrownBy(() -> parse("--shift", "0,3")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("use --shifts for several");
        assertThatThrownBy(() -> parse("--shifts", "0,3", "--shift", "5")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("once");
        assertThatThrownBy(() -> parse("--shifts", "0,90000")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--shift must be 0 to 86400");
        assertThatThrownBy(() -> parse("--shifts", "0,3", "--list")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("take one --shift");
        assertThat(parse("--shifts", "0,1,2,3,4,5,6,7,8,9").shifts()).hasSize(10);
        assertThatThrownBy(() -> parse("--shifts", "0,1,2,3,4,5,6,7,8,9,10"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most 10 shifts");
        assertThatThrownBy(() -> parse("--shifts", "0,,3")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("whole number of seconds");
    }

    @Test
    void shouldShiftEverySubmitTimeAndKeepTheJobs() {
        Trace trace = Traces.of("a,0,1,100", "b,7,2,50", "c,7,1,10");
        Trace shifted = trace.shifted(5);
        assertThat(shifted.jobs()).extracting(TraceJob::submitSeconds).containsExactly(5L, 12L, 12L);
        assertThat(shifted.jobs()).extracting(TraceJob::jobId).containsExactly("a", "b", "c");
        assertThat(shifted.jobs()).extracting(TraceJob::durationSeconds)
                .containsExactlyElementsOf(trace.jobs().stream().map(TraceJob::durationSeconds).toList());
        assertThat(trace.shifted(0)).isSameAs(trace);
        assertThatThrownBy(() -> trace.shifted(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldRunShiftedInputsUnderTheirOwnDirectoryAndNeverReadUnshiftedResults(@TempDir Path dir)
            throws Exception {
        Optional<Path> philly = Traces.shared("philly_dev.csv");
        Optional<Path> alibaba = Traces.shared("alibaba_openb2023_lastweek.csv");
        assumeTrue(philly.isPresent() && alibaba.isPresent(), "needs ../shared/traces");
        Path old = dir.resolve("old");
        Path kept = old.resolve("realistic").resolve("alibaba-moderate").resolve("tiresias-las");
        Files.createDirectories(kept);
        new RunResult(1, 1, 0, 0, 0, 1, 1, 1).write(kept.resolve("result.properties"));
        Path out = dir.resolve("out");
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();

        int status = SuiteMain.run(new String[] {"--philly", philly.get().toString(), "--alibaba",
            alibaba.get().toString(), "--inputs", "alibaba-moderate", "--run", "tiresias-las", "--shift", "5",
            "--reuse", old.toString(), "--out", out.toString()},
                new PrintStream(stdout, true, StandardCharsets.UTF_8),
                new PrintStream(stderr, true, StandardCharsets.UTF_8));

        assertThat(status).as(stderr.toString(StandardCharsets.UTF_8)).isZero();
        Path result = out.resolve("realistic-shift-5").resolve("alibaba-moderate").resolve("tiresias-las")
                .resolve("result.properties");
        assertThat(result).isRegularFile();
        assertThat(RunResult.read(result).avgJct()).as("run, not read from the unshifted results").isGreaterThan(1000);
        assertThat(out.resolve("realistic")).doesNotExist();
        assertThat(stdout.toString(StandardCharsets.UTF_8)).contains("submit times shifted 5 s");
    }
}
