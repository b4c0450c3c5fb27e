package io.quanta.core.stage;

import static io.quanta.core.testing.Fixtures.aCell;
import static io.quanta.core.testing.Fixtures.aJob;
import static io.quanta.core.testing.Fixtures.aNode;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.Job;
import io.quanta.core.plan.Allocation;
import io.quanta.core.plan.CellIndex;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalDouble;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link LasRanking#sort} takes a fast path (one primitive sort of packed keys) when it can and the object sort when
 * it cannot; either way the result is the ranking's own order: level, arrival, id.
 */
class LasRankingTest {

    record Row(String name, List<Job> jobs, List<String> expectedFirst) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Row> rows() {
        return Stream.of(
                new Row("lower queue first, then earlier arrival",
                        jobs(aJob("c").seq(3).level(1), aJob("a").seq(9).level(0), aJob("b").seq(2).level(1)),
                        List.of("a", "b", "c")),
                new Row("same level and arrival: the id decides (object sort)",
                        jobs(aJob("z").seq(5).level(0), aJob("y").seq(5).level(0), aJob("x").seq(1).level(1)),
                        List.of("y", "z", "x")),
                new Row("an arrival number too large to pack (object sort)",
                        jobs(aJob("late").seq(1L << 50).level(0), aJob("early").seq(7).level(0),
                                aJob("low").seq(1).level(2)),
                        List.of("early", "late", "low")),
                new Row("a stored level above the queue count counts as the last queue",
                        jobs(aJob("deep").seq(1).level(40), aJob("last").seq(2).level(2), aJob("top").seq(3).level(0)),
                        List.of("top", "deep", "last")),
                new Row("thousands of jobs, shuffled", shuffled(3_000, false), List.of()),
                new Row("thousands of jobs, shuffled, some sharing an arrival number", shuffled(3_000, true),
                        List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void shouldSortInTheRankingsOwnOrder(Row row) {
        LasRanking ranking = ranking(row.jobs());

        List<Job> sorted = ranking.sort(row.jobs());

        List<Job> expected = new ArrayList<>(row.jobs());
        expected.sort(ranking.order());
        assertThat(sorted).containsExactlyElementsOf(expected);
        assertThat(sorted.stream().map(Job::id).limit(row.expectedFirst().size()).toList())
                .containsExactlyElementsOf(row.expectedFirst());
    }

    private static LasRanking ranking(List<Job> jobs) {
        ClusterSnapshot snapshot = aCell().at(1_000).nodes(aNode("n1").gpus(1)).jobs(jobs).build();
        MultiLevelQueue queues = new MultiLevelQueue("p", new double[] {3250, 7200}, OptionalDouble.empty(), 0);
        return new LasRanking(queues, new Allocation(new CellIndex(snapshot)));
    }

    private static List<Job> jobs(io.quanta.core.testing.JobFixture... fixtures) {
        return Stream.of(fixtures).map(f -> f.build()).toList();
    }

    private static List<Job> shuffled(int n, boolean sharedArrivals) {
        SplittableRandom random = new SplittableRandom(11);
        List<Job> jobs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long seq = sharedArrivals ? random.nextInt(n / 3) : i;
            jobs.add(aJob(String.format("j%05d", i)).seq(seq).level(random.nextInt(4)).build());
        }
        Collections.shuffle(jobs, new java.util.Random(5));
        return List.copyOf(jobs);
    }
}
