package io.quanta.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.node.runner.AttemptId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SelfFenceTest {

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final List<String> reasons = new ArrayList<>();
    private final SelfFence fence = new SelfFence(Duration.ofSeconds(20), nanos::get, reason -> {
        reasons.add(reason);
        return List.of(new AttemptId("j1", 1));
    });

    private void advance(Duration d) {
        nanos.addAndGet(d.toNanos());
    }

    @Test
    void shouldNotFenceWhileHeartbeatsAreAcknowledgedWithinTheTimeout() {
        for (int i = 0; i < 10; i++) {
            advance(Duration.ofSeconds(15));
            fence.contact();
            assertThat(fence.check()).isEmpty();
        }
        assertThat(reasons).isEmpty();
    }

    @Test
    void shouldFenceOnceTheBrokerHasBeenSilentForLongerThanTheTimeout() {
        advance(Duration.ofSeconds(20));
        assertThat(fence.check()).isEmpty();

        advance(Duration.ofMillis(1));
        assertThat(fence.check()).containsExactly(new AttemptId("j1", 1));
        assertThat(reasons).singleElement().asString().contains("node fenced itself", "20001 ms",
                "node.fence.timeout.ms 20000");
        assertThat(fence.fencedTotal()).isEqualTo(1);
    }

    @Test
    void shouldCountSilenceFromStartWhenNoHeartbeatWasEverAcknowledged() {
        advance(Duration.ofSeconds(21));

        assertThat(fence.check()).hasSize(1);
    }

    @Test
    void shouldStopFencingOnceContactIsBack() {
        advance(Duration.ofSeconds(30));
        fence.check();
        fence.contact();
        advance(Duration.ofSeconds(5));

        assertThat(fence.check()).isEmpty();
        assertThat(reasons).hasSize(1);
    }
}
