package io.quanta.sim.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PercentilesTest {

    @Test
    void shouldPickTheNearestRankWhenComputingPercentiles() {
        double[] v = {15, 20, 35, 40, 50};

        assertThat(Percentiles.nearestRank(v, 30)).isEqualTo(20);
        assertThat(Percentiles.nearestRank(v, 40)).isEqualTo(20);
        assertThat(Percentiles.nearestRank(v, 50)).isEqualTo(35);
        assertThat(Percentiles.nearestRank(v, 100)).isEqualTo(50);
        assertThat(Percentiles.nearestRank(new double[] {3, 1, 2}, 99)).isEqualTo(3);
        assertThat(Percentiles.mean(v)).isEqualTo(32);
    }

    @Test
    void shouldReturnNaNWhenThereAreNoSamples() {
        assertThat(Percentiles.nearestRank(new double[0], 50)).isNaN();
        assertThat(Percentiles.mean(new double[0])).isNaN();
    }
}
