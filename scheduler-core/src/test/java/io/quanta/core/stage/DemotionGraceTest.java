package io.quanta.core.stage;

import static io.quanta.core.testing.Fixtures.aCell;
import static io.quanta.core.testing.Fixtures.aJob;
import static io.quanta.core.testing.Fixtures.aNode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.core.config.PolicyConfig;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.plan.Allocation;
import io.quanta.core.plan.CellIndex;
import io.quanta.core.policy.PolicyRegistry;
import io.quanta.core.testing.JobFixture;
import java.time.Instant;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class DemotionGraceTest {

    private static final MultiLevelQueue QUEUES = new MultiLevelQueue("t", new double[] {3250, 7200},
            OptionalDouble.empty(), 60);

    private static ClusterSnapshot cell(JobFixture... jobs) {
        return aCell().at(10_000).nodes(aNode("n1").gpus(4)).jobs(jobs).build();
    }

    @Test
    void shouldWakeUpWhenTheFirstGraceEndsWhileAJobWaits() {
        ClusterSnapshot snapshot = cell(
                aJob("a").seq(1).runningOn("n1", 0, 1).attained(3300).level(1).executed(1650),
                aJob("b").seq(2).runningOn("n1", 2).attained(8000).level(2).executed(8000),
                aJob("c").seq(3).runningOn("n1", 3).attained(100).executed(100),
                aJob("w").seq(4).waiting(5));

        // a: (1.25 x 3,250 - 3,300) / 2 GPUs = 381.25 s; b: 1.25 x 7,200 - 8,000 = 1,000 s; c in queue 0: no grace
        assertThat(DemotionGrace.nextWakeUp(snapshot, QUEUES, 0.25)).contains(Instant.ofEpochMilli(10_381_250));
        // with 0.01 a is past its grace (3,282.5) and b too (7,272)
        assertThat(DemotionGrace.nextWakeUp(snapshot, QUEUES, 0.01)).isEmpty();
    }

    @Test
    void shouldNotWakeUpWhenNoJobWaits() {
        assertThat(DemotionGrace.nextWakeUp(cell(aJob("a").seq(1).runningOn("n1", 0).attained(3300).level(1)
                .executed(3300)), QUEUES, 0.25)).isEmpty();
    }

    @Test
    void shouldBeTheQuantaPolicysWakeUpWhenOn() {
        ClusterSnapshot snapshot = aCell().at(10_000).nodes(aNode("n1").gpus(1)).jobs(
                aJob("v").seq(1).runningOn("n1", 0).attained(3300).level(1).executed(3300),
                aJob("w").seq(2).waiting(5)).build();
        Map<String, String> grace = Map.of("policy", "quanta", "quanta.demotion-grace", "0.25",
                "quanta.preempt-by-index", "off");

        // v crosses 7,200 GPU-s in 3,900 s; its grace in queue 1 ends at 4,062.5 GPU-s, 762.5 s from now
        assertThat(PolicyRegistry.builtIn().create(PolicyConfig.of(grace)).nextWakeUp(snapshot))
                .contains(Instant.ofEpochMilli(10_762_500));
    }

    @Test
    void shouldRefuseANonPositiveGrace() {
        assertThatThrownBy(() -> new DemotionGrace(null, null, QUEUES, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldBoundItsScanByTheQueuesRuleItNarrows() {
        ClusterSnapshot snapshot = cell(aJob("a").seq(1).runningOn("n1", 0).attained(8000).level(2).executed(8000),
                aJob("w").seq(2).attained(9000).level(2).waiting(5));
        LasRanking levels = new LasRanking(QUEUES, new Allocation(new CellIndex(snapshot)));
        LowerQueueFirst queuesRule = new LowerQueueFirst("t", levels, QUEUES);
        PreemptionRule gated = new DemotionGrace(new PromotedJobGate(queuesRule, levels, QUEUES, 2), levels, QUEUES,
                0.1);

        // a gate is scanned job by job, but only within the prefix the queues' rule allows: a job of the last queue
        // (w) may preempt nobody under it, so the planner need not sort the candidates for it
        assertThat(gated.prefixMonotone()).isFalse();
        assertThat(gated.monotoneBound()).containsSame(queuesRule);
        assertThat(queuesRule.mayPreempt(snapshot.job("w").orElseThrow(), snapshot.job("a").orElseThrow()))
                .isFalse();
    }
}
