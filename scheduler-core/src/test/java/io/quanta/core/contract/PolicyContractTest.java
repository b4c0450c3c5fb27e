package io.quanta.core.contract;

import static io.quanta.core.testing.Fixtures.aCell;
import static io.quanta.core.testing.Fixtures.aJob;
import static io.quanta.core.testing.Fixtures.aNode;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.core.config.PolicyConfig;
import io.quanta.core.decision.Decision;
import io.quanta.core.decision.Decisions;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.GpuId;
import io.quanta.core.model.Job;
import io.quanta.core.model.Node;
import io.quanta.core.policy.PolicyRegistry;
import io.quanta.core.policy.SchedulingPolicy;
import io.quanta.core.testing.DecisionValidator;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The contract every registered policy must keep, run against each of them. */
class PolicyContractTest {

    static Stream<String> policies() {
        return PolicyRegistry.builtIn().names().stream();
    }

    static SchedulingPolicy policy(String name) {
        return PolicyRegistry.builtIn().create(PolicyConfig.defaults(name));
    }

    /** A busy two-rack cell: running jobs in several queues, queued jobs of every size, one packed pair. */
    static ClusterSnapshot busyCell() {
        return aCell().at(10_000)
                .nodes(aNode("n1").rack("r1").gpus(4), aNode("n2").rack("r1").gpus(4),
                        aNode("n3").rack("r2").gpus(4), aNode("n4").rack("r2").gpus(4))
                .jobs(aJob("r1").seq(1).runningOn("n1", 0, 1).attained(9000).level(2).executed(4000)
                                .model("resnet50", 0.2, 8000, 100),
                        aJob("r2").seq(2).runningOn("n1", 2).attained(100).executed(100)
                                .model("lstm", 0.1, 6000, 50),
                        aJob("r3").seq(3).runningOn("n2", 0, 1, 2, 3).attained(5000).level(1).executed(300)
                                .model("vgg16", 0.9, 12000, 200),
                        aJob("r4").seq(4).runningOn("n3", 0).attained(20).executed(20)
                                .model("lstm", 0.1, 6000, 50),
                        aJob("q1").seq(5).gpus(4).waiting(50).model("resnet50", 0.8, 8000, 100),
                        aJob("q2").seq(6).gpus(1).waiting(40).model("lstm", 0.1, 6000, 50),
                        aJob("q3").seq(7).gpus(2).waiting(700).attained(4000).level(1).executed(200)
                                .model("vgg16", 0.9, 12000, 200),
                        aJob("q4").seq(8).gpus(8).waiting(10).model("resnet50", 0.9, 8000, 100),
                        aJob("q5").seq(9).gpus(1).waiting(5).model("resnet50", 0.2, 8000, 100))
                .build();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void shouldDecideTheSameWhenGivenTheSameSnapshotTwice(String name) {
        ClusterSnapshot snapshot = busyCell();

        Decisions first = policy(name).decide(snapshot);
        Decisions second = policy(name).decide(snapshot);

        assertThat(first.isEmpty()).as("the busy cell gives every policy something to do").isFalse();
        assertThat(second).isEqualTo(first);
        assertThat(policy(name).nextWakeUp(snapshot)).isEqualTo(policy(name).nextWakeUp(snapshot));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void shouldDecideTheSameWhenOneInstanceServesTwoCellsConcurrently(String name) throws Exception {
        SchedulingPolicy shared = policy(name);
        ClusterSnapshot busy = busyCell();
        ClusterSnapshot small = aCell().nodes(aNode("n1").gpus(2))
                .jobs(aJob("x").seq(1).gpus(1), aJob("y").seq(2).gpus(2)).build();
        Decisions expectedBusy = policy(name).decide(busy);
        Decisions expectedSmall = policy(name).decide(small);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            List<java.util.concurrent.Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                ClusterSnapshot cell = i % 2 == 0 ? busy : small;
                Decisions expected = i % 2 == 0 ? expectedBusy : expectedSmall;
                results.add(pool.submit(() -> shared.decide(cell).equals(expected)));
            }
            for (java.util.concurrent.Future<Boolean> r : results) {
                assertThat(r.get(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void shouldDecideTheSameWhenInputListsArriveInAnotherOrder(String name) {
        ClusterSnapshot snapshot = busyCell();
        List<Node> nodes = new ArrayList<>(snapshot.nodes());
        List<Job> jobs = new ArrayList<>(snapshot.jobs());
        Collections.shuffle(nodes, new Random(7));
        Collections.shuffle(jobs, new Random(7));
        ClusterSnapshot shuffled = new ClusterSnapshot(snapshot.now(), nodes, jobs, snapshot.serviceDistribution(),
                snapshot.interferenceMemory());

        assertThat(policy(name).decide(shuffled)).isEqualTo(policy(name).decide(snapshot));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void shouldKeepTheContractWhenTheCellIsBusy(String name) {
        ClusterSnapshot snapshot = busyCell();

        Decisions decisions = policy(name).decide(snapshot);

        assertThat(DecisionValidator.violations(snapshot, decisions)).isEmpty();
        assertThat(decisions.list()).allSatisfy(d -> assertThat(d.reason()).startsWith(name + ":"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void shouldRejectWithAReasonWhenAJobIsLargerThanTheCell(String name) {
        ClusterSnapshot snapshot = aCell().nodes(aNode("n1").gpus(4), aNode("n2").gpus(4))
                .jobs(aJob("huge").gpus(9), aJob("fits").gpus(8)).build();

        Decisions decisions = policy(name).decide(snapshot);

        assertThat(decisions.ofType(Decision.Reject.class)).singleElement().satisfies(r -> {
            assertThat(r.jobId()).isEqualTo("huge");
            assertThat(r.reason()).contains("needs 9 GPUs").contains("only 8");
        });
        assertThat(decisions.ofType(Decision.Start.class)).extracting(Decision::jobId).containsExactly("fits");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void shouldStartNothingOfAGangWhenOnlyPartOfItFits(String name) {
        ClusterSnapshot snapshot = aCell().nodes(aNode("n1").gpus(4))
                .jobs(aJob("running").runningOn("n1", 0).executed(10), aJob("gang").gpus(4).waiting(10_000))
                .build();

        Decisions decisions = policy(name).decide(snapshot);

        assertThat(decisions.ofType(Decision.Start.class)).isEmpty();
        assertThat(decisions.ofType(Decision.Pack.class)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void shouldUseNeitherUnhealthyGpusNorDeadNodesWhenPlacing(String name) {
        ClusterSnapshot snapshot = aCell()
                .nodes(aNode("n1").gpus(4).unhealthy(1, 2), aNode("n2").gpus(4).dead(), aNode("n3").gpus(2))
                .jobs(aJob("a").gpus(2).waiting(1000), aJob("b").gpus(2).waiting(1000),
                        aJob("c").gpus(1).waiting(1000), aJob("d").gpus(1).waiting(1000))
                .build();

        Decisions decisions = policy(name).decide(snapshot);

        List<GpuId> used = decisions.ofType(Decision.Start.class).stream().flatMap(s -> s.gpus().stream()).toList();
        assertThat(used).doesNotContain(new GpuId("n1", 1), new GpuId("n1", 2))
                .noneMatch(g -> g.nodeId().equals("n2"))
                .hasSize(4)
                .doesNotHaveDuplicates();
        assertThat(DecisionValidator.violations(snapshot, decisions)).isEmpty();
    }
}
