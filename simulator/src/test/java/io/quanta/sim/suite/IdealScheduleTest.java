package io.quanta.sim.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.quanta.sim.testing.Traces;
import io.quanta.sim.trace.Trace;
import org.junit.jupiter.api.Test;

/** The idealised clairvoyant schedule against hand-computed completion times. */
class IdealScheduleTest {

    @Test
    void shouldHoldAGangBackUntilEnoughGpusAreReleasedAndBackfillMeanwhile() {
        // 2 GPUs, all at 0: a (1 GPU, 3 s), b (2 GPUs, 10 s), c (1 GPU, 5 s), d (1 GPU, 20 s).
        // 0-3 a and c; at 3 the order is c (2 left), b, d: b does not fit beside c, d does; at 5 b (10) comes before
        // d (18 left) and takes both GPUs; b ends at 15, d at 33.
        Trace trace = Traces.of("a,0,1,3", "b,0,2,10", "c,0,1,5", "d,0,1,20");

        assertThat(IdealSchedule.completions(trace, 2)).containsExactly(3, 15, 5, 33);
        assertThat(IdealSchedule.averageJct(trace, 2)).isCloseTo(56.0 / 4, within(1e-12));
    }

    @Test
    void shouldPreemptARunningJobForAShorterGangThatArrives() {
        // 2 GPUs: a (1 GPU, 6 s) at 0; b (2 GPUs, 2 s) at 1 has less left than a (5) and takes both GPUs until 3
        Trace trace = Traces.of("a,0,1,6", "b,1,2,2");

        assertThat(IdealSchedule.completions(trace, 2)).containsExactly(8, 3);
    }

    @Test
    void shouldBreakTiesByJobIdAndWaitForLateArrivals() {
        // 1 GPU: b and a of 10 s at 0 (a first by id), c of 1 s at 100 when the GPU is idle again
        Trace trace = Traces.of("b,0,1,10", "a,0,1,10", "c,100,1,1");

        assertThat(IdealSchedule.completions(trace, 1)).containsExactly(20, 10, 101);
    }

    @Test
    void shouldRejectAJobLargerThanTheCluster() {
        assertThatThrownBy(() -> IdealSchedule.averageJct(Traces.of("a,0,3,10"), 2))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3 GPUs");
    }
}
