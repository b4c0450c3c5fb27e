package io.quanta.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

class CensoredServiceTest {

    private static final double[] NONE = new double[0];

    @Test
    void withoutAliveJobsItIsTheCompletedJobsDistribution() {
        Random random = new Random(7);
        for (int round = 0; round < 20; round++) {
            double[] values = RandomServices.draw(random, 300, 5);
            int n = values.length;
            ServiceDistribution completed = ServiceDistribution.of(1024, 1, values);
            CensoredService censored = CensoredService.of(completed, NONE);
            for (double q : new double[] {0.1, 0.25, 0.5, 0.8, 0.95, 0.99}) {
                assertThat(censored.quantile(q)).as("quantile %s of %s samples", q, n).isEqualTo(completed.quantile(q));
            }
            for (double a : new double[] {0, 100, 500, 3_250, 19_000, 25_000}) {
                for (double d : new double[] {1, 1_000, 7_200, Double.POSITIVE_INFINITY}) {
                    assertThat(censored.gittinsIndex(a, d)).as("G(%s, %s)", a, d)
                            .isCloseTo(completed.gittinsIndex(a, d), within(1e-12));
                }
                assertThat(censored.hasSampleAbove(a)).isEqualTo(completed.hasSampleAbove(a));
                assertThat(censored.bestIndex(a)).as("best index at %s", a)
                        .isCloseTo(completed.bestIndex(a), within(1e-12));
            }
            assertThat(censored.size()).isEqualTo(completed.size());
        }
    }

    @Test
    void anAliveJobIsAtRiskUntilItsAttainedServiceAndNoLonger() {
        // completed 1 and 3, alive at 2: S drops by 1/3 at 1 (3 at risk), then by all that is left at 3 (1 at risk)
        CensoredService km = CensoredService.of(ServiceDistribution.of(16, 1, 1, 3), new double[] {2});
        assertThat(km.values()).containsExactly(1, 3);
        assertThat(km.masses()[0]).isCloseTo(1.0 / 3, within(1e-12));
        assertThat(km.masses()[1]).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(km.quantile(0.5)).isEqualTo(3);
        assertThat(ServiceDistribution.of(16, 1, 1, 3).quantile(0.5)).as("the completed jobs alone").isEqualTo(1);
    }

    @Test
    void massAboveEveryCompletedJobSitsAtTheLongestAliveJob() {
        // completed 1, alive at 5: half the mass ends at 1, the other half lies beyond 5 and is put there (Efron)
        CensoredService km = CensoredService.of(ServiceDistribution.of(16, 1, 1), new double[] {5});
        assertThat(km.values()).containsExactly(1, 5);
        assertThat(km.masses()).containsExactly(0.5, 0.5);
        assertThat(km.hasSampleAbove(4)).isTrue();
        assertThat(km.gittinsIndex(4, Double.POSITIVE_INFINITY)).as("1 / (5 - 4)").isCloseTo(1.0, within(1e-12));
        assertThat(ServiceDistribution.of(16, 1, 1).gittinsIndex(4, Double.POSITIVE_INFINITY))
                .as("a job past every completed one, from the completed jobs alone").isZero();
        assertThat(km.hasSampleAbove(5)).isFalse();
    }

    @Test
    void eachHeldSampleStandsForTheCompletedJobsItWasDrawnFrom() {
        ServiceDistribution completed = ServiceDistribution.of(2, 3, 1, 1, 1, 1);
        assertThat(completed.size()).isEqualTo(2);
        assertThat(completed.observed()).isEqualTo(4);
        // two samples of weight 2 each and one alive job at 2: 4 of 5 end at 1, the fifth lies at 2 or beyond
        CensoredService km = CensoredService.of(completed, new double[] {2});
        assertThat(km.masses()[0]).isCloseTo(0.8, within(1e-12));
        assertThat(km.quantile(0.8)).isEqualTo(1);
        assertThat(km.quantile(0.85)).isEqualTo(2);
        assertThat(km.size()).isEqualTo(2);
    }

    @Test
    void tiesEndBeforeTheyAreCensoredAndJobsNotYetStartedSayNothing() {
        // completed 2, alive at 2 (at risk at 2, as a job that attained 2 may end there), alive at 0, NaN and -1
        CensoredService km = CensoredService.of(ServiceDistribution.of(16, 1, 2),
                new double[] {2, 0, Double.NaN, -1});
        assertThat(km.values()).containsExactly(2);
        assertThat(km.masses()).containsExactly(1.0);
        assertThat(km.gittinsIndex(1, 5)).as("ends 1 GPU-s on").isCloseTo(1.0, within(1e-12));
    }

    @Test
    void onlyAliveJobsOrNothingAtAll() {
        CensoredService alive = CensoredService.of(ServiceDistribution.empty(16, 1), new double[] {3, 9});
        assertThat(alive.values()).containsExactly(9);
        assertThat(alive.quantile(0.5)).isEqualTo(9);
        assertThat(alive.size()).isZero();
        CensoredService empty = CensoredService.of(ServiceDistribution.empty(16, 1), NONE);
        assertThat(empty.hasSampleAbove(0)).isFalse();
        assertThat(empty.gittinsIndex(0, 10)).isZero();
        assertThatThrownBy(() -> empty.quantile(0.5)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> alive.quantile(1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theBestIndexIsTheLargestOverLookAheadsEndingAtAValueWithMass() {
        // completed 1 and 3, alive at 2: mass 1/3 at 1, 2/3 at 3. a = 0: D = 1 gives (1/3) / (1/3 + 2/3) = 1/3,
        // D = 3 gives 1 / (1/3 + 2) = 3/7: the best is 3/7
        CensoredService km = CensoredService.of(ServiceDistribution.of(16, 1, 1, 3), new double[] {2});
        assertThat(km.bestIndex(0)).isCloseTo(3.0 / 7, within(1e-12));
        assertThat(km.bestIndex(0)).isGreaterThanOrEqualTo(km.gittinsIndex(0, 1))
                .isGreaterThanOrEqualTo(km.gittinsIndex(0, Double.POSITIVE_INFINITY));
        assertThat(km.bestIndex(3)).isZero();
    }
}
