package io.quanta.sim.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.sim.testing.Traces;
import io.quanta.sim.trace.Trace;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --held-back FILE}: the suite's rule applied to a Philly period kept outside the repository. */
class SuiteHeldBackTest {

    @Test
    void shouldCutAsManyNonOverlappingWindowsAsFitEachAtBothSizesInTheHeldBackHalf() {
        List<SuiteInput> inputs = SuiteDefinition.heldBack(synthetic(4_500), "Philly 2018-Q1.csv");

        assertThat(inputs).extracting(SuiteInput::id).containsExactly("philly-2018-q1-w00-heavy",
                "philly-2018-q1-w00-moderate", "philly-2018-q1-w01-heavy", "philly-2018-q1-w01-moderate");
        assertThat(inputs).allSatisfy(i -> {
            assertThat(i.half()).isEqualTo(Half.HELD_BACK);
            assertThat(i.seed()).isEqualTo(1);
            assertThat(i.trace().size()).isEqualTo(2_000);
            assertThat(i.trace().jobs().get(0).submitSeconds()).isZero();
        });
        assertThat(inputs.get(0).trace().jobs().get(0).jobId()).isEqualTo("philly-000000");
        assertThat(inputs.get(2).trace().jobs().get(0).jobId()).as("the last window ends at the last job here")
                .isEqualTo("philly-002500");
        assertThat(inputs.get(1).load()).isEqualTo("moderate");
        assertThat(inputs.get(0).cluster().totalGpus()).isLessThan(inputs.get(1).cluster().totalGpus());
    }

    @Test
    void shouldCutAtMostSixteenWindowsAndRefuseATraceShorterThanOne() {
        List<SuiteInput> inputs = SuiteDefinition.heldBack(synthetic(40_000), "q.csv");

        assertThat(inputs).hasSize(32);
        assertThat(inputs.get(30).id()).isEqualTo("q-w15-heavy");
        assertThat(inputs.get(30).trace().jobs().get(0).jobId()).as("15 x floor(38,000 / 15)")
                .isEqualTo("philly-037995");
        assertThat(inputs.get(28).trace().jobs().get(1_999).jobId()).as("no overlap").isEqualTo("philly-037461");
        assertThatThrownBy(() -> SuiteDefinition.heldBack(synthetic(1_999), "short.csv"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has 1999 jobs");
    }

    @Test
    void shouldNameInputsAfterTheFileSoThatTwoFilesNeverShareAResultDirectory() {
        assertThat(SuiteDefinition.idPrefix("philly_2017_Q4.csv")).isEqualTo("philly-2017-q4");
        assertThat(SuiteDefinition.idPrefix("-period 3-.CSV")).isEqualTo("period-3");
        assertThat(SuiteDefinition.idPrefix("..csv")).isEqualTo("held-back");
        assertThat(SuiteDefinition.idPrefix("x".repeat(100) + ".csv")).hasSize(SuiteDefinition.MAX_PREFIX_CHARS);
    }

    @Test
    void shouldRunAHeldBackFileWithoutTheRepositorysTraces(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("period-a.csv");
        StringBuilder csv = new StringBuilder("job_id,submit_time_s,num_gpus,duration_s,status,user,virtual_cluster\n");
        IntStream.range(0, 2_000).forEach(i -> csv.append(String.format("philly-%06d,%d,%d,%d,,,vc%d%n", i,
                20L * i, i % 9 == 0 ? 4 : 1, 300 + (i % 17) * 60, i % 5)));
        Files.writeString(file, csv);
        Path out = dir.resolve("out");
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();

        int status = SuiteMain.run(new String[] {"--held-back", file.toString(), "--half", "held-back",
            "--run", "tiresias-las", "--run", "quanta", "--out", out.toString()},
                new PrintStream(stdout, true, StandardCharsets.UTF_8),
                new PrintStream(stderr, true, StandardCharsets.UTF_8));

        assertThat(status).as(stderr.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(stdout.toString(StandardCharsets.UTF_8)).contains("## held-back half (2 inputs)")
                .contains("| period-a-w00-heavy |").contains("`quanta` over 2 inputs")
                .contains("; the mean of the 1% longest JCTs above tiresias-las's on ");
        assertThat(out.resolve("realistic").resolve("period-a-w00-moderate").resolve("quanta")
                .resolve("result.properties")).isRegularFile();
    }

    @Test
    void shouldRefuseAMalformedOrShortHeldBackFileWithAReasonAndRunNothing(@TempDir Path dir) throws Exception {
        Path noColumns = dir.resolve("a.csv");
        Files.writeString(noColumns, "a,b\n1,2\n");
        Path tooShort = dir.resolve("b.csv");
        Files.writeString(tooShort, "job_id,submit_time_s,num_gpus,duration_s\nj1,0,1,60\n");
        // 2,000 rows each, so that only the fault refuses them: a duplicated id, a job submitted before the one above
        // it (a skewed clock), a job larger than any cluster of the suite's ladder
        Path duplicated = heldBackFile(dir.resolve("c.csv"), i -> i == 7 ? "philly-000006,70,1,300" : null);
        Path reordered = heldBackFile(dir.resolve("d.csv"), i -> i == 7 ? "philly-000007,5,1,300" : null);
        Path oversized = heldBackFile(dir.resolve("e.csv"), i -> i == 7 ? "philly-000007,70,100000,300" : null);
        Map<Path, String> reasons = Map.of(noColumns, "lacks column 'job_id'", tooShort, "has 1 jobs",
                duplicated, "duplicate job id philly-000006", reordered, "not sorted by submit time",
                oversized, "more than the largest size", dir.resolve("missing.csv"), "cannot read trace");
        for (Map.Entry<Path, String> e : reasons.entrySet()) {
            Path file = e.getKey();
            ByteArrayOutputStream stderr = new ByteArrayOutputStream();

            int status = SuiteMain.run(new String[] {"--held-back", file.toString(), "--run", "tiresias-las",
                "--out", dir.resolve("out").toString()}, new PrintStream(new ByteArrayOutputStream(), true,
                    StandardCharsets.UTF_8), new PrintStream(stderr, true, StandardCharsets.UTF_8));

            assertThat(status).as(file.toString()).isNotZero();
            assertThat(stderr.toString(StandardCharsets.UTF_8)).contains(file.getFileName().toString())
                    .contains(e.getValue());
        }
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void shouldRefuseAHalfThatHasNoInputOfTheHeldBackFile(@TempDir Path dir) throws Exception {
        Path file = heldBackFile(dir.resolve("period-b.csv"), i -> null);
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();

        int status = SuiteMain.run(new String[] {"--held-back", file.toString(), "--half", "tuning", "--run",
            "tiresias-las", "--list"}, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(stderr, true, StandardCharsets.UTF_8));

        assertThat(status).isEqualTo(2);
        assertThat(stderr.toString(StandardCharsets.UTF_8)).contains("no input is in half 'tuning'");
    }

    /** 2,000 light jobs in the Philly format, row {@code i} replaced by {@code row.apply(i)} when not null. */
    static Path heldBackFile(Path file, IntFunction<String> row) throws Exception {
        StringBuilder csv = new StringBuilder("job_id,submit_time_s,num_gpus,duration_s,status,user,virtual_cluster\n");
        for (int i = 0; i < 2_000; i++) {
            String replaced = row.apply(i);
            csv.append(replaced != null ? replaced : String.format("philly-%06d,%d,%d,%d,,,vc%d", i, 10L * i,
                    i % 9 == 0 ? 4 : 1, 300 + (i % 17) * 60, i % 5)).append('\n');
        }
        Files.writeString(file, csv);
        return file;
    }

    @Test
    void shouldStillRequireTheRepositorysTracesWithoutAHeldBackFile() {
        assertThatThrownBy(() -> SuiteMain.parse(new String[] {"--philly", "p"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("or --held-back");
        assertThat(SuiteMain.parse(new String[] {"--held-back", "h.csv", "--half", "held-back"}).heldBack())
                .isEqualTo(Path.of("h.csv"));
        assertThatThrownBy(() -> SuiteMain.parse(new String[] {"--held-back", "h.csv", "--half", "held_back"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--half must be tuning, check, held-back, between, all");
    }

    /** {@code n} jobs, one every 10 s: mostly one GPU, some gangs, 500 to 1,700 s. */
    private static Trace synthetic(int n) {
        List<String> rows = new ArrayList<>(n);
        IntStream.range(0, n).forEach(i -> rows.add(String.format("philly-%06d,%d,%d,%d", i, 10L * i,
                i % 7 == 0 ? 2 : 1, 500 + (i % 13) * 100)));
        return Traces.of(rows.toArray(String[]::new));
    }
}
