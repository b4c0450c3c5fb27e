package io.quanta.core.stage;

import static io.quanta.core.testing.Fixtures.aCell;
import static io.quanta.core.testing.Fixtures.aJob;
import static io.quanta.core.testing.Fixtures.aNode;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.core.decision.Decision;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.GpuId;
import io.quanta.core.model.Job;
import io.quanta.core.placement.PlacementMode;
import io.quanta.core.placement.PlacementRule;
import io.quanta.core.plan.Allocation;
import io.quanta.core.plan.CellIndex;
import io.quanta.core.plan.Placer;
import io.quanta.core.testing.JobFixture;
import io.quanta.core.testing.NodeFixture;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** One row per case: a cell with one waiting job, whether the relaxer starts it and on which GPUs. */
class ImpossibleConsolidationRelaxerTest {

    private static final Placer SKEW_AWARE = new Placer(new PlacementRule(PlacementMode.SKEW_AWARE, 0.5, 3600));

    record Row(String name, List<NodeFixture> nodes, JobFixture waiting, List<JobFixture> running, String expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** Two racks of two 2-GPU nodes (4 GPUs a rack). */
    static List<NodeFixture> smallRacks() {
        return List.of(aNode("a1").rack("r1").gpus(2), aNode("a2").rack("r1").gpus(2),
                aNode("b1").rack("r2").gpus(2), aNode("b2").rack("r2").gpus(2));
    }

    static Stream<Row> rows() {
        return Stream.of(
                new Row("a gang larger than any rack starts spread at once", smallRacks(),
                        aJob("h").gpus(6).skew(0.9), List.of(), "START h a1/0,a1/1,a2/0,a2/1,b1/0,b1/1"),
                new Row("a gang one rack can hold is left to wait", smallRacks(),
                        aJob("h").gpus(4).skew(0.9),
                        List.of(aJob("x").runningOn("a1", 0), aJob("y").runningOn("b1", 0)), ""),
                new Row("a gang that does not want consolidation is not this step's business", smallRacks(),
                        aJob("h").gpus(6).skew(0.1), List.of(), ""),
                new Row("a gang past its relaxation timeout is not this step's business", smallRacks(),
                        aJob("h").gpus(6).skew(0.9).waiting(3600), List.of(), ""),
                new Row("impossible but no free GPUs: nothing to start", smallRacks(),
                        aJob("h").gpus(6).skew(0.9), List.of(aJob("x").runningOn("a1", 0, 1).runningOn("a2", 0)), ""),
                new Row("unhealthy GPUs do not count towards a rack", List.of(aNode("a1").rack("r1").gpus(4),
                        aNode("a2").rack("r1").gpus(4).unhealthy(0, 1, 2, 3), aNode("b1").rack("r2").gpus(4)),
                        aJob("h").gpus(8).skew(0.9), List.of(), "START h a1/0,a1/1,a1/2,a1/3,b1/0,b1/1,b1/2,b1/3"),
                new Row("a healthy rack that can hold the gang keeps it waiting", List.of(aNode("a1").rack("r1").gpus(4),
                        aNode("a2").rack("r1").gpus(4), aNode("b1").rack("r2").gpus(4)),
                        aJob("h").gpus(8).skew(0.9), List.of(aJob("x").runningOn("a2", 0)), ""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void shouldStartOnlyGangsThatCanNeverBeConsolidated(Row row) {
        List<Job> jobs = Stream.concat(row.running().stream(), Stream.of(row.waiting())).map(JobFixture::build).toList();
        ClusterSnapshot snapshot = aCell().nodes(row.nodes().toArray(NodeFixture[]::new)).jobs(jobs).build();
        Allocation alloc = new Allocation(new CellIndex(snapshot));
        Job waiting = jobs.get(jobs.size() - 1);

        boolean handled = new ImpossibleConsolidationRelaxer("p", SKEW_AWARE).handle(waiting, alloc);

        List<String> starts = alloc.decisions().list().stream().filter(Decision.Start.class::isInstance)
                .map(d -> "START " + d.jobId() + " " + String.join(",",
                        ((Decision.Start) d).gpus().stream().map(GpuId::toString).toList())).toList();
        assertThat(starts).isEqualTo(row.expected().isEmpty() ? List.of() : List.of(row.expected()));
        assertThat(handled).isEqualTo(!row.expected().isEmpty());
    }
}
