package io.quanta.core.stage;

import static io.quanta.core.testing.Fixtures.aCell;
import static io.quanta.core.testing.Fixtures.aJob;
import static io.quanta.core.testing.Fixtures.aNode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.core.decision.Decision;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.GpuId;
import io.quanta.core.model.Job;
import io.quanta.core.plan.Allocation;
import io.quanta.core.placement.PlacementMode;
import io.quanta.core.placement.PlacementRule;
import io.quanta.core.plan.CellIndex;
import io.quanta.core.plan.Placer;
import io.quanta.core.testing.JobFixture;
import io.quanta.core.testing.NodeFixture;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** One row per case: a cell with one waiting job; which GPUs it holds back after waiting how long. */
class GangReservationTest {

    private static final double HOUR = 3600;

    record Row(String name, List<NodeFixture> nodes, JobFixture waiting, List<JobFixture> others, String expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** Two 4-GPU servers, 2 GPUs free on n1 and 1 on n2, and a 2-GPU server n3, all free. */
    static List<NodeFixture> twoHalfUsed() {
        return List.of(aNode("n1").gpus(4), aNode("n2").gpus(4), aNode("n3").gpus(2));
    }

    static List<JobFixture> twoHalfUsedJobs() {
        return List.of(aJob("x").runningOn("n1", 0, 1), aJob("y").runningOn("n2", 0, 1, 2));
    }

    static Stream<Row> rows() {
        return Stream.of(
                new Row("a gang that waited the hour holds back the fullest server that can hold it", twoHalfUsed(),
                        aJob("h").gpus(4).waiting(HOUR), twoHalfUsedJobs(), "n1/2,n1/3"),
                new Row("not a second before the hour", twoHalfUsed(),
                        aJob("h").gpus(4).waiting(HOUR - 1), twoHalfUsedJobs(), ""),
                new Row("a one-GPU job holds nothing back (any free GPU fits it)", twoHalfUsed(),
                        aJob("h").gpus(1).waiting(10 * HOUR), twoHalfUsedJobs(), ""),
                new Row("a gang larger than any server holds the fullest servers that add up to it",
                        List.of(aNode("a").gpus(4), aNode("b").gpus(4), aNode("c").gpus(4)),
                        aJob("h").gpus(8).waiting(HOUR),
                        List.of(aJob("x").runningOn("a", 0), aJob("y").runningOn("b", 0, 1, 2),
                                aJob("z").runningOn("c", 0, 1)), "a/1,a/2,a/3,c/2,c/3"),
                new Row("only GPUs of the model the gang needs",
                        List.of(aNode("n1").gpus(4).model("v100"), aNode("n2").gpus(4).model("p100")),
                        aJob("h").gpus(4).gpuType("p100").waiting(HOUR),
                        List.of(aJob("x").runningOn("n2", 0)), "n2/1,n2/2,n2/3"),
                new Row("a server whose healthy GPUs cannot hold the gang is passed over, however free",
                        List.of(aNode("n1").gpus(4).unhealthy(0), aNode("n2").gpus(4)),
                        aJob("h").gpus(4).waiting(HOUR),
                        List.of(aJob("x").runningOn("n2", 0, 1)), "n2/2,n2/3"),
                new Row("GPUs a suspending job leaves count, and are held back too",
                        List.of(aNode("n1").gpus(4), aNode("n2").gpus(4)),
                        aJob("h").gpus(4).waiting(HOUR),
                        List.of(aJob("s").suspending().on("n1", 0, 1), aJob("x").runningOn("n1", 2),
                                aJob("y").runningOn("n2", 0, 1)), "n1/0,n1/1,n1/3"),
                new Row("nothing free where it could run: nothing held",
                        List.of(aNode("n1").gpus(4), aNode("n2").gpus(2)),
                        aJob("h").gpus(4).waiting(HOUR),
                        List.of(aJob("x").runningOn("n1", 0, 1, 2, 3)), ""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void shouldHoldBackTheGpusNearestToHoldingALongWaitingGang(Row row) {
        List<Job> jobs = Stream.concat(row.others().stream(), Stream.of(row.waiting())).map(JobFixture::build).toList();
        ClusterSnapshot snapshot = aCell().nodes(row.nodes().toArray(NodeFixture[]::new)).jobs(jobs).build();
        Allocation alloc = new Allocation(new CellIndex(snapshot));
        Job waiting = jobs.get(jobs.size() - 1);
        int freeBefore = alloc.pool().totalFree() + alloc.pool().totalSoon();

        boolean handled = new GangReservation(HOUR).handle(waiting, alloc);

        List<GpuId> held = alloc.heldBack(waiting.id());
        assertThat(String.join(",", held.stream().map(GpuId::toString).toList())).isEqualTo(row.expected());
        assertThat(alloc.pool().totalFree() + alloc.pool().totalSoon()).isEqualTo(freeBefore - held.size());
        assertThat(held).noneMatch(alloc.pool()::isFree);
        assertThat(handled).as("the job still waits: the scheduler goes on to the jobs behind it").isFalse();
        assertThat(alloc.decisions().list()).isEmpty();
    }

    @Test
    void shouldHoldBackForOneJobPerPassOnly() {
        ClusterSnapshot snapshot = aCell().nodes(aNode("n1").gpus(4), aNode("n2").gpus(4)).jobs(
                aJob("x").runningOn("n1", 0, 1), aJob("y").runningOn("n2", 0, 1),
                aJob("g").gpus(4).waiting(HOUR), aJob("h").gpus(4).waiting(HOUR)).build();
        Allocation alloc = new Allocation(new CellIndex(snapshot));
        GangReservation reservation = new GangReservation(HOUR);

        reservation.handle(job(snapshot, "g"), alloc);
        reservation.handle(job(snapshot, "h"), alloc);

        assertThat(alloc.heldBack("g")).extracting(GpuId::toString).containsExactly("n1/2", "n1/3");
        assertThat(alloc.heldBack("h")).isEmpty();
        assertThat(alloc.pool().totalFree()).isEqualTo(2);
    }

    @Test
    void shouldKeepTheHeldGpusFromTheJobsBehindTheGangAndSayWhyInItsWaitingReason() {
        ClusterSnapshot snapshot = aCell().nodes(aNode("n1").gpus(4), aNode("n2").gpus(4)).jobs(
                aJob("x").seq(1).runningOn("n1", 0, 1), aJob("y").seq(2).runningOn("n2", 0, 1, 2),
                aJob("h").seq(3).gpus(4).waiting(HOUR), aJob("s").seq(4).gpus(2).waiting(5),
                aJob("t").seq(5).gpus(1).waiting(5)).build();
        Allocation alloc = new Allocation(new CellIndex(snapshot));
        Placer placer = new Placer(new PlacementRule(PlacementMode.SKEW_AWARE, 0.5, 3600));
        List<Job> waiting = Stream.of("h", "s", "t").map(id -> job(snapshot, id)).toList();

        List<Job> left = new GangScheduler("p", placer, new FifoRanking(), List.of(new GangReservation(HOUR)), false)
                .run(waiting, alloc);

        assertThat(alloc.decisions().list()).extracting(d -> d.type() + " " + d.jobId()).containsExactly("START t");
        assertThat(alloc.decisions().ofType(Decision.Start.class).get(0).gpus()).extracting(GpuId::toString)
                .containsExactly("n2/3");
        assertThat(left).extracting(Job::id).containsExactly("h", "s");
        assertThat(alloc.decisions().waiting().get("h").text())
                .contains("needs 4 GPUs at once; 3 of 8 GPUs are free")
                .endsWith("; 2 GPUs on n1 (free or being freed) are held back for it, so that jobs behind it "
                        + "cannot take them");
    }

    @Test
    void shouldFindNothingNearestToAGangLargerThanTheCell() {
        ClusterSnapshot snapshot = aCell().nodes(aNode("n1").gpus(4), aNode("n2").gpus(4)).jobs().build();

        assertThat(new Allocation(new CellIndex(snapshot)).pool().nearestTo(9, Optional.empty())).isEmpty();
        assertThat(new Allocation(new CellIndex(snapshot)).pool().nearestTo(8, Optional.empty())).hasSize(8);
    }

    @Test
    void shouldRefuseAThresholdThatIsNotAPositiveFiniteNumber() {
        for (double bad : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> new GangReservation(bad)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    private static Job job(ClusterSnapshot snapshot, String id) {
        return snapshot.jobs().stream().filter(j -> j.id().equals(id)).findFirst().orElseThrow();
    }
}
