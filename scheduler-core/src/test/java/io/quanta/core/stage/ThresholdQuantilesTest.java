package io.quanta.core.stage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.core.model.ServiceDistribution;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link ThresholdQuantiles}: the configured thresholds until enough jobs completed, then their quantiles. */
class ThresholdQuantilesTest {

    @Test
    void shouldTakeTheQuantilesOfTheCompletedJobsOnceThereAreEnough() {
        ServiceDistribution tenJobs = ServiceDistribution.of(64, 1, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100);

        assertThat(new ThresholdQuantiles(List.of(0.5, 0.8), 10).thresholds(tenJobs)).hasValueSatisfying(
                t -> assertThat(t).containsExactly(50, 80));
    }

    @Test
    void shouldKeepTheConfiguredThresholdsUntilEnoughJobsCompletedOrWhenOff() {
        ServiceDistribution nineJobs = ServiceDistribution.of(64, 1, 10, 20, 30, 40, 50, 60, 70, 80, 90);

        assertThat(new ThresholdQuantiles(List.of(0.5, 0.8), 10).thresholds(nineJobs)).isEmpty();
        assertThat(new ThresholdQuantiles(List.of(), 1).thresholds(nineJobs)).isEmpty();
    }

    @Test
    void shouldKeepLearnedThresholdsStrictlyAscendingWhenJobsShareOneSize() {
        ServiceDistribution sameSize = ServiceDistribution.of(64, 1, 0, 0, 0, 500, 500, 500, 500, 500);

        assertThat(new ThresholdQuantiles(List.of(0.2, 0.5, 0.9), 8).thresholds(sameSize)).hasValueSatisfying(
                t -> assertThat(t).containsExactly(1, 500, 501));
    }

    @Test
    void shouldGiveTheEmpiricalQuantile() {
        ServiceDistribution four = ServiceDistribution.of(8, 1, 4, 1, 3, 2);

        assertThat(four.quantile(0.25)).isEqualTo(1);
        assertThat(four.quantile(0.26)).isEqualTo(2);
        assertThat(four.quantile(0.99)).isEqualTo(4);
        assertThatThrownBy(() -> four.quantile(1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ServiceDistribution.empty(8, 1).quantile(0.5))
                .isInstanceOf(IllegalStateException.class);
    }
}
