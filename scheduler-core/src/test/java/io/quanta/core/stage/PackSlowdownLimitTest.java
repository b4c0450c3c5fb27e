package io.quanta.core.stage;

import static io.quanta.core.testing.Fixtures.aCell;
import static io.quanta.core.testing.Fixtures.aJob;
import static io.quanta.core.testing.Fixtures.aNode;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.core.decision.Decision;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.InterferenceMemory;
import io.quanta.core.model.Job;
import io.quanta.core.plan.Allocation;
import io.quanta.core.plan.CellIndex;
import io.quanta.core.testing.JobFixture;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One row per case: a (lstm) and b (resnet50) packed on one GPU, both with a solo speed of 10 minibatches/s; the
 * pairs the stage records as interfering.
 */
class PackSlowdownLimitTest {

    record Row(String name, double minSpeed, JobFixture a, JobFixture b, InterferenceMemory memory,
               List<String> expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static JobFixture a(double throughput) {
        return aJob("a").seq(1).runningOn("n1", 0).sharingWith("b").throughput(throughput)
                .model("lstm", 0.27, 4000, 100);
    }

    static JobFixture b(double throughput) {
        return aJob("b").seq(2).runningOn("n1", 0).sharingWith("a").throughput(throughput)
                .model("resnet50", 0.09, 6000, 100);
    }

    static Stream<Row> rows() {
        InterferenceMemory empty = InterferenceMemory.empty(16);
        return Stream.of(
                new Row("a job at half speed: the pair is remembered", 0.7, a(5), b(10), empty,
                        List.of("a/b lstm+resnet50")),
                new Row("both above the bound: nothing", 0.7, a(8.1), b(8.1), empty, List.of()),
                new Row("exactly at the bound: nothing", 0.7, a(7), b(10), empty, List.of()),
                new Row("both below: the pair once", 0.7, a(5), b(5), empty, List.of("a/b lstm+resnet50")),
                new Row("a pair already remembered: nothing", 0.7, a(5), b(10),
                        empty.record("resnet50", "lstm"), List.of()),
                new Row("under introspection: left to the introspector", 0.7, a(5).placementChangedAt(0), b(10),
                        empty, List.of()),
                new Row("no telemetry: nothing", 0.7, a(Double.NaN), b(10), empty, List.of()),
                new Row("the baseline, when measured, is the speed alone", 0.7, a(5).baseline(6), b(10), empty,
                        List.of()),
                new Row("bound 0 (off): nothing", 0, a(1), b(1), empty, List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void shouldRememberOnlyPairsThatCostOneJobTooMuch(Row row) {
        List<Job> running = List.of(row.a().build(), row.b().build());
        ClusterSnapshot snapshot = aCell().at(1_000).interference(row.memory()).nodes(aNode("n1").gpus(1))
                .jobs(running).build();
        Allocation alloc = new Allocation(new CellIndex(snapshot));

        new PackSlowdownLimit("p", row.minSpeed()).apply(running, alloc);

        assertThat(alloc.decisions().list().stream().filter(Decision.RecordInterference.class::isInstance)
                .map(Decision.RecordInterference.class::cast)
                .map(r -> r.jobId() + "/" + r.otherJobId() + " " + r.modelA() + "+" + r.modelB()).toList())
                .isEqualTo(row.expected());
    }
}
