package io.quanta.core.scenario;

import static io.quanta.core.testing.Fixtures.aCell;
import static io.quanta.core.testing.Fixtures.aJob;
import static io.quanta.core.testing.Fixtures.aNode;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.core.config.PolicyConfig;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.policy.PolicyRegistry;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** nextWakeUp: the next stream time at which a policy would decide differently without new input. */
class WakeUpTest {

    private static Optional<Instant> wake(Map<String, String> config, ClusterSnapshot snapshot) {
        return PolicyRegistry.builtIn().create(PolicyConfig.of(config)).nextWakeUp(snapshot);
    }

    @Test
    void shouldWakeWhenARunningJobCrossesItsThreshold() {
        ClusterSnapshot s = aCell().at(1000).nodes(aNode("n1").gpus(4))
                .jobs(aJob("a").runningOn("n1", 0, 1).attained(3000).executed(1500)).build();

        assertThat(wake(Map.of("policy", "tiresias-las"), s)).contains(Instant.ofEpochSecond(1125));
    }

    @Test
    void shouldRoundUpToAMillisecondWhenTheCrossingFallsBetween() {
        ClusterSnapshot s = aCell().at(1000).nodes(aNode("n1").gpus(4))
                .jobs(aJob("a").runningOn("n1", 0, 1, 2).attained(3249).executed(1000)).build();

        assertThat(wake(Map.of("policy", "tiresias-las"), s)).contains(Instant.ofEpochMilli(1_000_334));
    }

    @Test
    void shouldWakeWhenTheKnobWouldPromoteAQueuedJob() {
        ClusterSnapshot s = aCell().at(1000).nodes(aNode("n1").gpus(1)).jobs(
                aJob("x").runningOn("n1", 0).attained(9000).level(2).executed(10),
                aJob("a").attained(4000).level(1).executed(100).waiting(50)).build();

        assertThat(wake(Map.of("policy", "tiresias-las", "tiresias.starvation-knob", "2"), s))
                .contains(Instant.ofEpochSecond(1150));
        assertThat(wake(Map.of("policy", "tiresias-las"), s)).isEmpty();
    }

    @Test
    void shouldWakeAtTheEndOfATimeSliceOnlyWhileAJobWaits() {
        var cell = aCell().at(1000).nodes(aNode("n1").gpus(1));
        ClusterSnapshot waiting = cell.jobs(aJob("a").runningOn("n1", 0).executed(20), aJob("b")).build();
        ClusterSnapshot alone = aCell().at(1000).nodes(aNode("n1").gpus(1))
                .jobs(aJob("a").runningOn("n1", 0).executed(20)).build();

        assertThat(wake(Map.of("policy", "gandiva"), waiting)).contains(Instant.ofEpochSecond(1040));
        assertThat(wake(Map.of("policy", "gandiva"), alone)).isEmpty();
    }

    @Test
    void shouldWakeWhenAnIntrospectionWindowEnds() {
        ClusterSnapshot s = aCell().at(1000).nodes(aNode("n1").gpus(1)).jobs(
                aJob("a").runningOn("n1", 0).executed(500).sharingWith("b").placementChangedAt(900),
                aJob("b").runningOn("n1", 0).executed(100).sharingWith("a").placementChangedAt(900)).build();

        assertThat(wake(Map.of("policy", "quanta"), s)).contains(Instant.ofEpochSecond(1020));
    }

    @Test
    void shouldWakeWhenAJobMayBeMovedForAWaitingGang() {
        ClusterSnapshot s = aCell().at(1000).nodes(aNode("n1").gpus(4), aNode("n2").gpus(4)).jobs(
                aJob("a").runningOn("n1", 0).executed(100), aJob("b").runningOn("n1", 1).executed(300),
                aJob("c").runningOn("n2", 0).executed(100), aJob("g").gpus(4).skew(0.9).waiting(5)).build();

        assertThat(wake(Map.of("policy", "quanta", "quanta.move-min-run-s", "1800"), s))
                .as("b may be moved 1,500 s on").contains(Instant.ofEpochSecond(2500));
        assertThat(wake(Map.of("policy", "quanta"), s)).get().isNotEqualTo(Instant.ofEpochSecond(2500));
    }

    @Test
    void shouldWakeWhenAWaitingJobMayRelaxItsPlacement() {
        ClusterSnapshot s = aCell().at(1000).nodes(aNode("n1").gpus(4), aNode("n2").gpus(4)).jobs(
                aJob("x").runningOn("n1", 0, 1).executed(10), aJob("y").runningOn("n2", 0, 1).executed(10),
                aJob("h").gpus(4).skew(0.9).waiting(100)).build();

        assertThat(wake(Map.of("policy", "fifo"), s)).contains(Instant.ofEpochSecond(1200));
    }
}
