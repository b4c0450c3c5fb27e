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
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** One row per case: three 1-GPU nodes, packed running jobs, whether a job waits; the migrations planned. */
class PackSplitterTest {

    private static final Placer PLACER = new Placer(new PlacementRule(PlacementMode.SKEW_AWARE, 0.5, 300));

    record Row(String name, int maxPerPass, boolean jobWaiting, List<JobFixture> running, List<String> expected,
               boolean whileWaiting) {
        Row(String name, int maxPerPass, boolean jobWaiting, List<JobFixture> running, List<String> expected) {
            this(name, maxPerPass, jobWaiting, running, expected, false);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** a (long-running) and b (new) packed on n1/0. */
    static List<JobFixture> pack() {
        return List.of(aJob("a").seq(1).runningOn("n1", 0).sharingWith("b").attained(5000),
                aJob("b").seq(2).runningOn("n1", 0).sharingWith("a").attained(100));
    }

    static List<JobFixture> with(List<JobFixture> jobs, JobFixture... more) {
        return Stream.concat(jobs.stream(), Stream.of(more)).toList();
    }

    static Stream<Row> rows() {
        return Stream.of(
                new Row("no job waits: the member with least service moves to a free GPU", 2, false, pack(),
                        List.of("MIGRATE b n1/0->n2/0")),
                new Row("a job waits: the free GPUs are left to it", 2, true, pack(), List.of()),
                new Row("a job waits, unpack-while-waiting: the free GPUs it could not use take the pack apart", 2,
                        true, pack(), List.of("MIGRATE b n1/0->n2/0"), true),
                new Row("unpack-while-waiting with no job waiting: as without", 2, false, pack(),
                        List.of("MIGRATE b n1/0->n2/0"), true),
                new Row("a pack under introspection is left to the introspector", 2, false,
                        List.of(aJob("a").seq(1).runningOn("n1", 0).sharingWith("b").attained(5000),
                                aJob("b").seq(2).runningOn("n1", 0).sharingWith("a").attained(100)
                                        .placementChangedAt(900)), List.of()),
                new Row("no free GPU: nothing", 2, false,
                        with(pack(), aJob("c").seq(3).runningOn("n2", 0), aJob("d").seq(4).runningOn("n3", 0)),
                        List.of()),
                new Row("at most max-per-pass moves, least attained first", 1, false,
                        List.of(aJob("a").seq(1).runningOn("n1", 0).sharingWith("b").attained(5000),
                                aJob("b").seq(2).runningOn("n1", 0).sharingWith("a").attained(300),
                                aJob("c").seq(3).runningOn("n2", 0).sharingWith("d").attained(4000),
                                aJob("d").seq(4).runningOn("n2", 0).sharingWith("c").attained(200)),
                        List.of("MIGRATE d n2/0->n3/0")),
                new Row("max-per-pass 0 (off): nothing", 0, false, pack(), List.of()),
                new Row("a job alone is not moved", 2, false, List.of(aJob("a").seq(1).runningOn("n1", 0)),
                        List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void shouldUnpackOnlyOntoFreeGpusTheWaitingJobsLeft(Row row) {
        List<Job> running = row.running().stream().map(JobFixture::build).toList();
        List<Job> waiting = row.jobWaiting() ? List.of(aJob("w").seq(9).build()) : List.of();
        ClusterSnapshot snapshot = aCell().at(1_000).nodes(aNode("n1").gpus(1), aNode("n2").gpus(1),
                aNode("n3").gpus(1)).jobs(Stream.concat(running.stream(), waiting.stream()).toList()).build();
        Allocation alloc = new Allocation(new CellIndex(snapshot));

        new PackSplitter("p", PLACER, row.maxPerPass(), row.whileWaiting()).apply(running, waiting, alloc, null);

        assertThat(alloc.decisions().list().stream().filter(Decision.Migrate.class::isInstance)
                .map(Decision.Migrate.class::cast)
                .map(m -> "MIGRATE " + m.jobId() + " " + gpus(m.from()) + "->" + gpus(m.to())).toList())
                .isEqualTo(row.expected());
    }

    private static String gpus(List<GpuId> gpus) {
        return gpus.stream().map(GpuId::toString).collect(Collectors.joining(","));
    }
}
