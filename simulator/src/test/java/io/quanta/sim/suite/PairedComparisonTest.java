package io.quanta.sim.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.testing.Traces;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The paired comparison of two runs: mean difference, inputs ahead and behind, and its bootstrap interval. */
class PairedComparisonTest {

    @Test
    void shouldCountTheInputsEachRunIsAheadOn() {
        PairedComparison c = PairedComparison.of(List.of(0.02, -0.01, 0.0, 0.05));

        assertThat(c.inputs()).isEqualTo(4);
        assertThat(c.meanDifference()).isCloseTo(0.015, within(1e-12));
        assertThat(c.ahead()).isEqualTo(2);
        assertThat(c.behind()).isEqualTo(1);
    }

    @Test
    void shouldCountARunReadBackFromItsFileAndTheSameRunJustComputedAsATie() {
        List<SuiteInput> inputs = List.of(
                new SuiteInput("a", Half.CHECK, Traces.of("j,0,1,100"), ClusterShape.parse("1x1x8"), "heavy", 2, 1),
                new SuiteInput("b", Half.CHECK, Traces.of("j,0,1,100"), ClusterShape.parse("1x1x8"), "heavy", 2, 1));
        Map<String, Map<String, RunResult>> results = Map.of(
                "a", Map.of(SuiteTable.BASELINE, avg(200), "new", avg(150.0000004), "old", avg(150)),
                "b", Map.of(SuiteTable.BASELINE, avg(200), "new", avg(140), "old", avg(150)));

        PairedComparison c = PairedComparison.of(inputs, results, "new", "old").orElseThrow();

        assertThat(c.inputs()).isEqualTo(2);
        assertThat(c.ahead()).as("b only: a's runs differ by the result file's rounding").isEqualTo(1);
        assertThat(c.behind()).isZero();
        assertThat(c.meanDifference()).isCloseTo(0.05, within(1e-9));
    }

    private static RunResult avg(double seconds) {
        return new RunResult(seconds, seconds, 0, 0, 0, 0, 0, 0);
    }

    @Test
    void shouldGiveAPointIntervalWhenEveryInputDiffersAlike() {
        PairedComparison c = PairedComparison.of(List.of(0.03, 0.03, 0.03));

        assertThat(c.low()).isCloseTo(0.03, within(1e-12));
        assertThat(c.high()).isCloseTo(0.03, within(1e-12));
    }

    @Test
    void shouldPutZeroInsideTheIntervalWhenOneOutlierMakesTheMean() {
        List<Double> d = new ArrayList<>(List.of(-0.01, 0.01, -0.01, 0.01, -0.01, 0.01, -0.01, 0.01, -0.01));
        d.add(0.5);

        PairedComparison c = PairedComparison.of(d);

        assertThat(c.meanDifference()).isGreaterThan(0.04);
        assertThat(c.low()).isLessThan(0).isLessThanOrEqualTo(c.meanDifference());
        assertThat(c.high()).isGreaterThan(c.meanDifference());
    }

    @Test
    void shouldExcludeZeroWhenEveryInputGains() {
        PairedComparison c = PairedComparison.of(List.of(0.01, 0.02, 0.015, 0.03, 0.01, 0.02, 0.025, 0.012));

        assertThat(c.low()).isGreaterThan(0);
    }

    @Test
    void shouldResampleTheSameEveryTime() {
        List<Double> d = List.of(0.1, -0.2, 0.05, 0.3, -0.1);

        assertThat(PairedComparison.of(d)).isEqualTo(PairedComparison.of(d));
    }
}
