package io.quanta.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PacerTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void shouldOweTheRateTimesTheTimeSinceItStarted() {
        Pacer pacer = new Pacer();
        assertThat(pacer.due(1000, 0)).isZero();
        assertThat(pacer.due(1000, SECOND / 2)).isEqualTo(500);
        assertThat(pacer.due(1000, SECOND / 2)).as("nothing more at the same instant").isZero();
        assertThat(pacer.due(1000, 2 * SECOND)).as("a late tick catches up at the same rate").isEqualTo(1500);
    }

    @Test
    void shouldNotSendWhatAPauseSkippedWhenTheSourceResumes() {
        Pacer pacer = new Pacer();
        pacer.due(1000, 0);
        assertThat(pacer.due(1000, SECOND)).isEqualTo(1000);
        assertThat(pacer.due(0, SECOND)).isZero();
        assertThat(pacer.due(0, 21 * SECOND)).as("paused for 20 s").isZero();
        assertThat(pacer.due(1000, 21 * SECOND)).as("no burst of 20,000 at the restart").isZero();
        assertThat(pacer.due(1000, 21 * SECOND + SECOND / 10)).isEqualTo(100);
    }

    @Test
    void shouldTreatANegativeRateAsAPause() {
        Pacer pacer = new Pacer();
        assertThat(pacer.due(-5, 0)).isZero();
        assertThat(pacer.due(-5, 10 * SECOND)).isZero();
    }
}
