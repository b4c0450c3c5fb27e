package io.quanta.core.stage;

import static io.quanta.core.testing.Fixtures.aCell;
import static io.quanta.core.testing.Fixtures.aJob;
import static io.quanta.core.testing.Fixtures.aNode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.testing.JobFixture;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class PreemptionBackoffTest {

    private static ClusterSnapshot cell(JobFixture... jobs) {
        return aCell().at(10_000).nodes(aNode("n1").gpus(4)).jobs(jobs).build();
    }

    @Test
    void shouldWakeUpWhenTheFirstProtectionEndsWhileAJobWaits() {
        ClusterSnapshot snapshot = cell(
                aJob("a").seq(1).runningOn("n1", 0).executed(100).preemptions(1),
                aJob("b").seq(2).runningOn("n1", 1).executed(700).preemptions(2),
                aJob("c").seq(3).runningOn("n1", 2).executed(10),
                aJob("w").seq(4).waiting(5));

        // a: 1 x 600 - 100 = 500 s left; b: 2 x 600 - 700 = 500 s; c was never preempted: not protected
        assertThat(PreemptionBackoff.nextWakeUp(snapshot, 600)).contains(Instant.ofEpochSecond(10_500));
        // a: 300 - 100 = 200 s left; b ran past its 600 s
        assertThat(PreemptionBackoff.nextWakeUp(snapshot, 300)).contains(Instant.ofEpochSecond(10_200));
    }

    @Test
    void shouldNotWakeUpWhenNoJobWaits() {
        assertThat(PreemptionBackoff.nextWakeUp(cell(aJob("a").seq(1).runningOn("n1", 0).executed(100)
                .preemptions(1)), 600)).isEmpty();
    }

    @Test
    void shouldRefuseANonPositiveBackoff() {
        assertThatThrownBy(() -> new PreemptionBackoff(null, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
