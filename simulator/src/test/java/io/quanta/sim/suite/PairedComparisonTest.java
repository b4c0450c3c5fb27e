package io.quanta.sim.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
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
