package io.quanta.sim.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quanta.sim.testing.Traces;
import io.quanta.sim.trace.Trace;
import io.quanta.sim.trace.TraceLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The fixed inputs and halves of the suite. */
class SuiteDefinitionTest {

    @ParameterizedTest(name = "window {0} from job {1}: {2}")
    @CsvSource({"0, 0, TUNING", "1, 3389, CHECK", "2, 6778, TUNING", "13, 44057, CHECK", "14, 47446, TUNING",
        "15, 50835, TUNING", "11, 37279, CHECK", "1, 44200, CHECK", "1, 44201, TUNING", "3, 49000, TUNING"})
    void shouldSplitWindowsByParityExceptThoseSharingMoreThanATenthWithEarlierTuningInputs(int k, int first,
                                                                                            Half expected) {
        assertThat(SuiteDefinition.halfOf(k, first)).isEqualTo(expected);
    }

    @Test
    void shouldCutSixteenEvenlySpreadWindowsWithBothSizesAndExtraSeeds() {
        List<SuiteInput> inputs = SuiteDefinition.phillyWindows(syntheticFull(52_849));

        assertThat(inputs).hasSize(16 * 2 + 4 * 2);
        assertThat(inputs).extracting(SuiteInput::id).doesNotHaveDuplicates()
                .contains("w00-heavy", "w00-heavy-s2", "w03-heavy-s3", "w15-moderate")
                .doesNotContain("w04-heavy-s2");
        assertThat(inputs.stream().filter(i -> i.id().equals("w15-heavy")).findFirst().orElseThrow().trace().name())
                .endsWith("jobs 50835-52834");
        assertThat(inputs).allSatisfy(i -> {
            assertThat(i.trace().size()).isEqualTo(2_000);
            assertThat(i.trace().jobs().get(0).submitSeconds()).isZero();
            assertThat(i.half()).isEqualTo(SuiteDefinition.halfOf(Integer.parseInt(i.id().substring(1, 3)),
                    Integer.parseInt(i.trace().name().replaceAll(".* jobs (\\d+)-.*", "$1"))));
        });
        Map<Half, Long> perHalf = inputs.stream().collect(Collectors.groupingBy(SuiteInput::half,
                Collectors.counting()));
        assertThat(perHalf).containsEntry(Half.TUNING, 22L).containsEntry(Half.CHECK, 18L);
    }

    @Test
    void shouldPutEveryInputOfOneWindowInTheSameHalf() {
        List<SuiteInput> inputs = SuiteDefinition.phillyWindows(syntheticFull(52_849));

        Map<String, List<Half>> halves = inputs.stream().collect(Collectors.groupingBy(i -> i.id().substring(0, 3),
                Collectors.mapping(SuiteInput::half, Collectors.toList())));
        assertThat(halves.values()).allSatisfy(h -> assertThat(h).containsOnly(h.get(0)));
    }

    @Test
    void shouldListTheRealInputsWithHeavyLoadAtLeastTwiceTheServiceWhenTheTracesArePresent() {
        Optional<Path> philly = Traces.shared("philly_dev.csv");
        Optional<Path> alibaba = Traces.shared("alibaba_openb2023_lastweek.csv");
        assumeTrue(philly.isPresent() && alibaba.isPresent(), "assumption: ../shared/traces is absent; skipped");

        List<SuiteInput> inputs = SuiteDefinition.standard(philly.get(), alibaba.get());

        assertThat(inputs).hasSize(42);
        assertThat(inputs).filteredOn(i -> i.load().equals("heavy"))
                .allSatisfy(i -> assertThat(i.fifoRatio()).isGreaterThanOrEqualTo(LoadRule.HEAVY));
        assertThat(inputs).filteredOn(i -> i.load().equals("moderate"))
                .allSatisfy(i -> assertThat(i.fifoRatio()).isLessThanOrEqualTo(LoadRule.MODERATE));
        assertThat(inputs).filteredOn(i -> i.id().startsWith("alibaba")).extracting(SuiteInput::half)
                .containsOnly(Half.CHECK);
        assertThat(TraceLoader.load(philly.get()).window(50_500, 10).jobs().get(0).jobId()).isEqualTo("philly-050500");
    }

    /** A trace of {@code n} one-GPU jobs, one every 10 s, 500 s each. */
    private static Trace syntheticFull(int n) {
        List<String> rows = new ArrayList<>(n);
        IntStream.range(0, n).forEach(i -> rows.add(String.format("philly-%06d,%d,%d,%d", i, 10L * i,
                1 + (i % 7 == 0 ? 1 : 0), 500 + (i % 13) * 100)));
        return Traces.of(rows.toArray(String[]::new));
    }
}
