package io.quanta.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ServiceDistributionTest {

    private final ServiceDistribution fourJobs = ServiceDistribution.of(16, 1, 100, 200, 300, 1000);

    @Test
    void shouldMatchTheHandComputedIndexWhenTheQuantumEndsInsideTheSample() {
        // a = 150, D = 200: S > 150 is {200, 300, 1000}; S - a <= 200 for {200, 300} -> P = 2/3.
        // E[min(S - a, D) | S > a] = (50 + 150 + 200) / 3 = 400/3.  G = (2/3) / (400/3) = 0.005.
        assertThat(fourJobs.gittinsIndex(150, 200)).isCloseTo(0.005, within(1e-12));
    }

    @Test
    void shouldMatchTheHandComputedIndexForANewJob() {
        // a = 0, D = 350: all 4 jobs exceed 0; 3 finish within 350; E[min(S, 350)] = (100+200+300+350)/4.
        assertThat(fourJobs.gittinsIndex(0, 350)).isCloseTo(3.0 / 950.0, within(1e-12));
    }

    @Test
    void shouldUseTheMeanResidualWhenTheLookAheadIsInfinite() {
        // a = 250: S > a is {300, 1000}, residuals 50 and 750: G = 2 / 800.
        assertThat(fourJobs.gittinsIndex(250, Double.POSITIVE_INFINITY)).isCloseTo(2.0 / 800.0, within(1e-12));
    }

    @Test
    void shouldReturnZeroWhenTheJobOutlivedEverySample() {
        assertThat(fourJobs.gittinsIndex(1000, 100)).isZero();
        assertThat(ServiceDistribution.empty(4, 0).gittinsIndex(0, 100)).isZero();
    }

    @Test
    void shouldKeepAtMostCapacitySamplesWhenManyJobsComplete() {
        ServiceDistribution d = ServiceDistribution.empty(32, 7);
        for (int i = 1; i <= 10_000; i++) {
            d = d.record(i);
        }

        assertThat(d.size()).isEqualTo(32);
        assertThat(d.observed()).isEqualTo(10_000);
        assertThat(d.samples()).isSorted();
        assertThat(d.samples()[31]).as("a uniform sample reaches the upper half").isGreaterThan(5000);
    }

    @Test
    void shouldSampleTheSameWhenTheSameJobsCompleteInTheSameOrder() {
        ServiceDistribution a = ServiceDistribution.empty(8, 99);
        ServiceDistribution b = ServiceDistribution.empty(8, 99);
        for (int i = 0; i < 500; i++) {
            a = a.record(i * 3.5);
            b = b.record(i * 3.5);
        }

        assertThat(a).isEqualTo(b);
        assertThat(a.samples()).isEqualTo(b.samples());
    }

    @Test
    void shouldRoundTripThroughItsBinaryEncoding() {
        ServiceDistribution d = ServiceDistribution.of(8, 5, 1, 2, 3, 40, 50, 60, 7, 8, 9, 10);

        assertThat(ServiceDistribution.fromBytes(d.toBytes())).isEqualTo(d);
    }

    @Test
    void shouldRefuseANegativeServiceWhenRecording() {
        assertThatThrownBy(() -> fourJobs.record(-1)).hasMessageContaining("-1");
    }

    @Test
    void shouldTakeTheBestLookAheadForTheGittinsIndexProper() {
        // fourJobs = {100, 200, 300, 1000}. a = 0: D = 100 gives 1 / 400, D = 200 gives 2 / 700, D = 300 gives
        // 3 / 900 (1 / 300, the best), D = 1000 gives 4 / 1600.
        assertThat(fourJobs.bestIndex(0)).isCloseTo(1.0 / 300, within(1e-12));
        // a = 250: {300, 1000} left, residuals 50 and 750: D = 50 gives 1 / 100 (50 + 50), D = 750 gives 2 / 800
        assertThat(fourJobs.bestIndex(250)).isCloseTo(1.0 / 100, within(1e-12));
        assertThat(fourJobs.bestIndex(1000)).as("outlived every sample").isZero();
    }

    @Test
    void shouldFindNoLookAheadThatBeatsTheBestIndexAndOneThatReachesIt() {
        Random random = new Random(11);
        for (int round = 0; round < 50; round++) {
            double[] values = RandomServices.draw(random, 60, 4);
            int n = values.length;
            ServiceDistribution d = ServiceDistribution.of(1024, 1, values);
            for (double a : new double[] {0, 100, 500, 3_250, 19_000}) {
                double best = d.bestIndex(a);
                double reached = 0;
                for (double v : d.samples()) {
                    if (v > a) {
                        reached = Math.max(reached, d.gittinsIndex(a, v - a));
                    }
                }
                assertThat(best).as("a = %s of %s samples", a, n).isCloseTo(reached, within(1e-15));
                for (double lookAhead = 1; lookAhead < 40_000; lookAhead *= 1.3) {
                    assertThat(d.gittinsIndex(a, lookAhead)).isLessThanOrEqualTo(best * (1 + 1e-12));
                }
                assertThat(d.gittinsIndex(a, Double.POSITIVE_INFINITY)).isLessThanOrEqualTo(best * (1 + 1e-12));
            }
        }
    }
}
