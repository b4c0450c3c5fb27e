package io.quanta.sim.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TimelineTest {

    @Test
    void shouldSampleEveryGridPointCrossedWithTheStateBeforeTheChange() {
        Timeline timeline = new Timeline(10, 100);
        timeline.advanceTo(25, t -> new TimelineSample(t, 1, 1, 1, 0));
        timeline.advanceTo(31, t -> new TimelineSample(t, 2, 2, 2, 0));

        assertThat(timeline.samples()).extracting(TimelineSample::atSeconds).containsExactly(0.0, 10.0, 20.0, 30.0);
        assertThat(timeline.samples()).extracting(TimelineSample::allocatedGpus).containsExactly(1, 1, 1, 2);
    }

    @Test
    void shouldHalveTheSamplesAndDoubleTheStepWhenFull() {
        Timeline timeline = new Timeline(1, 16);
        timeline.advanceTo(100, t -> new TimelineSample(t, 0, 0, 0, 0));

        assertThat(timeline.samples().size()).isLessThanOrEqualTo(16);
        assertThat(timeline.samples().get(timeline.samples().size() - 1).atSeconds()).isGreaterThan(80);
    }
}
