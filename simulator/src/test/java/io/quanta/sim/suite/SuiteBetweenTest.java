package io.quanta.sim.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.sim.testing.Traces;
import io.quanta.sim.trace.Trace;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --between}: the windows of philly_dev.csv halfway between the suite's own. */
class SuiteBetweenTest {

    /** As many jobs as philly_dev.csv, so that the windows start where they do on it. */
    private static final int PHILLY_DEV_JOBS = 52_849;

    @Test
    void shouldCutAWindowHalfwayBetweenEachTwoOfTheSuitesLeavingOutThoseOfTheEarlierTuningInputs() {
        Trace full = synthetic(PHILLY_DEV_JOBS);

        List<SuiteInput> between = SuiteDefinition.between(full);

        List<String> ids = new ArrayList<>();
        IntStream.rangeClosed(0, 12).forEach(k -> {
            ids.add(String.format("b%02d-heavy", k));
            ids.add(String.format("b%02d-moderate", k));
        });
        assertThat(between).extracting(SuiteInput::id).as("b13 and b14 share 1,751 and 640 jobs with the earlier"
                + " tuning inputs").containsExactlyElementsOf(ids);
        assertThat(between).allSatisfy(i -> {
            assertThat(i.half()).isEqualTo(Half.BETWEEN);
            assertThat(i.seed()).isEqualTo(1);
            assertThat(i.trace().size()).isEqualTo(SuiteDefinition.WINDOW_JOBS);
            assertThat(i.trace().jobs().get(0).submitSeconds()).isZero();
        });
        assertThat(between.get(0).trace().jobs().get(0).jobId()).as("3,389 / 2").isEqualTo("philly-001694");
        assertThat(between.get(24).trace().jobs().get(0).jobId()).as("12 x 3,389 + 1,694")
                .isEqualTo("philly-042362");
        assertThat(between.get(1).load()).isEqualTo("moderate");
    }

    @Test
    void shouldShareAboutThreeTenthsOfEachWindowWithTheSuitesInputsAndNothingWithEachOther() {
        Trace full = synthetic(PHILLY_DEV_JOBS);
        Set<String> suiteJobs = new HashSet<>();
        SuiteDefinition.phillyWindows(full).forEach(i -> i.trace().jobs().forEach(j -> suiteJobs.add(j.jobId())));
        Set<String> seen = new HashSet<>();

        for (SuiteInput input : SuiteDefinition.between(full)) {
            if (!input.id().endsWith("-heavy")) {
                continue;
            }
            long shared = input.trace().jobs().stream().filter(j -> suiteJobs.contains(j.jobId())).count();
            assertThat(shared).as(input.id()).isEqualTo(611);
            input.trace().jobs().forEach(j -> assertThat(seen.add(j.jobId())).as(j.jobId()).isTrue());
        }
    }

    @Test
    void shouldNeedThePhillyTraceOnlyAndNotAHeldBackFileBeside() {
        assertThat(SuiteMain.parse(new String[] {"--philly", "p.csv", "--between"}).between()).isTrue();
        assertThatThrownBy(() -> SuiteMain.parse(new String[] {"--between"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--between needs --philly");
        assertThatThrownBy(() -> SuiteMain.parse(new String[] {"--philly", "p.csv", "--between", "--held-back",
            "h.csv"})).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not both");
        assertThat(SuiteMain.parse(new String[] {"--philly", "p.csv", "--between", "--half", "between"}).half())
                .isEqualTo("between");
        assertThat(SuiteMain.parse(new String[] {"--held-back", "h.csv"}).philly()).isNull();
        assertThat(Path.of("p.csv")).isEqualTo(SuiteMain.parse(new String[] {"--philly", "p.csv", "--between"})
                .philly());
    }

    @Test
    void shouldRefuseATraceShorterThanTheSuitesWindowsNeed() {
        assertThatThrownBy(() -> SuiteDefinition.between(synthetic(15_999)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has 15999 jobs");
    }

    @Test
    void shouldRefuseAShortOrMissingPhillyFileWithAReasonAndRunNothing(@TempDir Path dir) throws Exception {
        Path shortFile = SuiteHeldBackTest.heldBackFile(dir.resolve("short.csv"), i -> null);
        Map<Path, String> reasons = Map.of(shortFile, "has 2000 jobs", dir.resolve("missing.csv"),
                "cannot read trace");
        for (Map.Entry<Path, String> e : reasons.entrySet()) {
            ByteArrayOutputStream stderr = new ByteArrayOutputStream();

            int status = SuiteMain.run(new String[] {"--philly", e.getKey().toString(), "--between", "--run",
                "tiresias-las", "--out", dir.resolve("out").toString()}, new PrintStream(new ByteArrayOutputStream(),
                    true, StandardCharsets.UTF_8), new PrintStream(stderr, true, StandardCharsets.UTF_8));

            assertThat(status).as(e.getKey().toString()).isNotZero();
            assertThat(stderr.toString(StandardCharsets.UTF_8)).contains(e.getValue());
        }
        assertThat(dir.resolve("out")).doesNotExist();
    }

    /** {@code n} jobs, one every 10 s: mostly one GPU, some gangs, 500 to 1,700 s. */
    private static Trace synthetic(int n) {
        List<String> rows = new ArrayList<>(n);
        IntStream.range(0, n).forEach(i -> rows.add(String.format("philly-%06d,%d,%d,%d", i, 10L * i,
                i % 7 == 0 ? 2 : 1, 500 + (i % 13) * 100)));
        return Traces.of(rows.toArray(String[]::new));
    }
}
