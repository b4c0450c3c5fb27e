package io.quanta.core.decision;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WaitingReasonTest {

    private static final String CAUSE = "needs 8 GPUs at once; 4 of 16 GPUs are free";

    @Test
    void shouldSeeTheSameCauseWhenOnlyThePositionMoved() {
        WaitingReason now = new WaitingReason("priority 2 of 40 waiting (queue 1, attained 5 GPU-s): ", CAUSE);

        assertThat(now.sameCauseAs("priority 9 of 300 waiting (queue 1, attained 0 GPU-s): " + CAUSE)).isTrue();
        assertThat(now.text()).isEqualTo("priority 2 of 40 waiting (queue 1, attained 5 GPU-s): " + CAUSE);
    }

    @Test
    void shouldSeeAnotherCauseWhenWhatBlocksTheJobChanged() {
        WaitingReason now = new WaitingReason("priority 2 of 40 waiting (queue 1): ", CAUSE);

        assertThat(now.sameCauseAs("priority 2 of 40 waiting (queue 1): needs 8 GPUs at once; 0 of 16 GPUs are free"))
                .isFalse();
        assertThat(now.sameCauseAs("suspended: attempt 1 checkpointed; " + CAUSE)).isFalse();
        assertThat(now.sameCauseAs("queued (x): y): " + CAUSE)).isFalse();
        assertThat(now.sameCauseAs(null)).isFalse();
        assertThat(now.sameCauseAs(CAUSE)).isFalse();
    }
}
