package io.quanta.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PooledServiceTest {

    /**
     * Pooled with as many jobs as the prior holds (each counts once) or twice as many, the estimate is the completed
     * jobs' sample of the tenant's values and the prior's once or twice over: every figure the same.
     */
    @Test
    void pooledWithWholeCopiesOfThePriorItIsTheSampleOfBoth() {
        Random random = new Random(13);
        for (int round = 0; round < 40; round++) {
            double[] own = RandomServices.draw(random, 40, 4);
            double[] cell = RandomServices.draw(random, 80, 6);
            for (int copies = 1; copies <= 2; copies++) {
                ServiceEstimate pooled = PooledService.of(ServiceDistribution.of(1024, 1, own),
                        ServiceDistribution.of(1024, 1, cell), copies * cell.length);
                ServiceDistribution both = ServiceDistribution.of(1024, 1, concat(own, cell, copies));
                for (double a : new double[] {0, 100, 500, 3_250, 19_000, 25_000}) {
                    for (double d : new double[] {1, 400, 1_000, 7_200, Double.POSITIVE_INFINITY}) {
                        assertThat(pooled.gittinsIndex(a, d)).as("G(%s, %s), %s copies", a, d, copies)
                                .isCloseTo(both.gittinsIndex(a, d), within(1e-12));
                    }
                    assertThat(pooled.bestIndex(a)).as("best index at %s", a)
                            .isCloseTo(both.bestIndex(a), within(1e-12));
                    assertThat(pooled.hasSampleAbove(a)).isEqualTo(both.hasSampleAbove(a));
                }
                for (double q : new double[] {0.01, 0.1, 0.25, 0.5, 0.8, 0.95, 0.99}) {
                    assertThat(pooled.quantile(q)).as("quantile %s", q).isEqualTo(both.quantile(q));
                }
                assertThat(pooled.size()).as("the tenant's own jobs").isEqualTo(own.length);
            }
        }
    }

    @Test
    void aTenantWhoseJobsAllRanPastTheLookAheadKeepsAnIndexAboveZeroWhereTheCellsJobsEnd() {
        // tenant: 8 jobs of 20,000 GPU-s; cell: 8 of 100 and 16 of 20,000; look-ahead 350
        ServiceDistribution tenant = ServiceDistribution.of(64, 1, repeat(20_000, 8));
        ServiceDistribution cell = ServiceDistribution.of(64, 1, concat(repeat(100, 8), repeat(20_000, 16), 1));
        assertThat(tenant.gittinsIndex(0, 350)).as("the tenant's jobs alone").isZero();
        // one job spread as the cell's: a third of it ends at 100. done = 1/3; expected = 8 x 350 + (8 x 100 + 16 x
        // 350) / 24
        double expected = (1.0 / 3) / (8 * 350 + (8 * 100 + 16 * 350) / 24.0);
        assertThat(PooledService.of(tenant, cell, 1).gittinsIndex(0, 350)).isCloseTo(expected, within(1e-15));
        // without a look-ahead every job ends: 9 of them, 8 x 20,000 + (8 x 100 + 16 x 20,000) / 24 GPU-s, within 4%
        // of the tenant's own 1 / 20,000
        double last = 9 / (8 * 20_000 + (8 * 100 + 16 * 20_000) / 24.0);
        assertThat(PooledService.of(tenant, cell, 1).gittinsIndex(0, Double.POSITIVE_INFINITY))
                .isCloseTo(last, within(1e-15));
        assertThat(last / tenant.gittinsIndex(0, Double.POSITIVE_INFINITY)).isBetween(1.0, 1.04);
    }

    @Test
    void aPriorOfKaplanMeierMassesCountsAsThatManyJobs() {
        // the product-limit estimate's masses sum to 1: pooled with 3 jobs, its values weigh 3 x their mass each
        CensoredService km = CensoredService.of(ServiceDistribution.of(16, 1, 1, 3), new double[] {2});
        ServiceDistribution tenant = ServiceDistribution.of(16, 1, 10, 10);
        ServiceEstimate pooled = PooledService.of(tenant, km, 3);
        // at a = 0, D = 1: done = 3 x 1/3 = 1 of mass 2 + 3; expected = 2 x 1 + 3 x 1
        assertThat(pooled.gittinsIndex(0, 1)).isCloseTo(1.0 / 5, within(1e-12));
        assertThat(pooled.quantile(0.2)).isEqualTo(1);
        assertThat(pooled.quantile(0.5)).isEqualTo(3);
        assertThat(pooled.quantile(0.9)).isEqualTo(10);
    }

    @Test
    void noPriorJobsOrAnEmptyPriorLeaveTheTenantsEstimate() {
        ServiceDistribution tenant = ServiceDistribution.of(16, 1, 10, 20);
        assertThat(PooledService.of(tenant, ServiceDistribution.of(16, 1, 5), 0)).isSameAs(tenant);
        assertThat(PooledService.of(tenant, ServiceDistribution.empty(16, 1), 2)).isSameAs(tenant);
    }

    @Test
    void refusesANegativeOrUndefinedCountOfPriorJobs() {
        ServiceDistribution d = ServiceDistribution.of(16, 1, 10);
        for (double bad : new double[] {-1, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> PooledService.of(d, d, bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("prior jobs");
        }
    }

    private static double[] repeat(double value, int n) {
        double[] out = new double[n];
        Arrays.fill(out, value);
        return out;
    }

    /** {@code a} followed by {@code copies} copies of {@code b}. */
    private static double[] concat(double[] a, double[] b, int copies) {
        double[] out = Arrays.copyOf(a, a.length + copies * b.length);
        for (int c = 0; c < copies; c++) {
            System.arraycopy(b, 0, out, a.length + c * b.length, b.length);
        }
        return out;
    }
}
