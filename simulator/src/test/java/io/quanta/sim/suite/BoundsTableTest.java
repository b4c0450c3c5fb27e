package io.quanta.sim.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.engine.FidelityMode;
import io.quanta.sim.testing.Traces;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The bounds table: figures per input, the gaps they close, mean and worst, and its place in the suite's table. */
class BoundsTableTest {

    // 2 GPUs: floor 6,000, bound 22,000 / 3, ideal 23,000 / 3 (AverageJctBoundTest, times a thousand)
    private static final SuiteInput G = new SuiteInput("g", Half.CHECK,
            Traces.of("a,0,1,3000", "b,0,2,10000", "c,0,1,5000"), ClusterShape.parse("1x1x2"), "heavy", 2.0, 1);
    // one job alone: floor, bound and ideal 1,000
    private static final SuiteInput H = new SuiteInput("h", Half.CHECK, Traces.of("x,0,1,1000"),
            ClusterShape.parse("1x1x2"), "moderate", 0.0, 1);

    private static RunResult avg(double avg) {
        return new RunResult(avg, avg, 0, 0, 0, 0, 0, 1);
    }

    @Test
    void shouldComputeTheFloorBoundAndIdealOfEachInputOncePerTraceAndSize() {
        Map<String, InputBounds> bounds = InputBounds.of(List.of(G, H), FidelityMode.REALISTIC_NO_PACK_GAIN, 2);

        assertThat(bounds.get("g").floor()).isEqualTo(6_000.0);
        assertThat(bounds.get("g").bound()).isCloseTo(22_000.0 / 3, within(1e-6));
        assertThat(bounds.get("g").ideal()).isCloseTo(23_000.0 / 3, within(1e-6));
        assertThat(bounds.get("g").capacityFactor()).isEqualTo(1.0);
        assertThat(bounds.get("h").bound()).isCloseTo(1_000.0, within(1e-9));
        // with packing gain a job's work may take fewer GPU-seconds: never a higher bound
        assertThat(InputBounds.of(List.of(G), FidelityMode.REALISTIC, 1).get("g").bound())
                .isLessThanOrEqualTo(bounds.get("g").bound() + 1e-9);
        assertThat(InputBounds.of(List.of(G), FidelityMode.REALISTIC, 1).get("g").capacityFactor()).isEqualTo(1.62);
    }

    @Test
    void shouldPrintTheGapsClosedAndTheShareOfTheAchievableGap() {
        Map<String, InputBounds> bounds = InputBounds.of(List.of(G, H), FidelityMode.REALISTIC_NO_PACK_GAIN, 2);
        Map<String, Map<String, RunResult>> results = Map.of("g", Map.of("tiresias-las", avg(9_000),
                "quanta", avg(8_000)));

        String table = BoundsTable.markdown("b", List.of(G, H), bounds, results);

        // bound closes (9,000 - 7,333) / 3,000, ideal (9,000 - 7,667) / 3,000, quanta 1,000 / 3,000, and its share
        // of the achievable gap 1,000 / 1,667
        assertThat(table).contains("## check half (2 inputs)")
                .contains("| g | 1x1x2 (2) | 6,000 | 7,333 | 7,667 | 9,000 | 8,000 | 55.6% | 44.4% | 33.3% | 60.0% |")
                .contains("| h | 1x1x2 (2) | 1,000 | 1,000 | 1,000 | | | | | | |")
                .contains("| **mean** | | | | | | | 55.6% | 44.4% | 33.3% | 60.0% |")
                .contains("over 1 inputs no schedule closes more than 55.6% of the gap on average and 55.6% on the"
                        + " worst input (g)")
                .contains("its share of the achievable gap mean 60.0%, worst 60.0% (g)");
    }

    @Test
    void shouldTakeMeanAndWorstOverTheInputsThatHaveAFigure() {
        BoundsTable.MeanWorst m = BoundsTable.MeanWorst.NONE.add("a", 0.5).add("b", Double.NaN).add("c", 0.1)
                .add("d", 0.3);

        assertThat(m.count()).isEqualTo(3);
        assertThat(m.mean()).isCloseTo(0.3, within(1e-12));
        assertThat(m.worst()).isCloseTo(0.1, within(1e-12));
        assertThat(m.worstInput()).isEqualTo("c");
    }

    @Test
    void shouldFollowEachHalfOfTheSuiteTableWithItsBoundsAndKeepTheTableAsItWas() {
        Map<String, Map<String, RunResult>> results = Map.of("g", Map.of("tiresias-las", avg(9_000),
                "quanta", avg(8_000)), "h", Map.of("tiresias-las", avg(1_000), "quanta", avg(1_000)));
        List<String> labels = List.of("tiresias-las", "quanta");
        String plain = SuiteTable.markdown("t", List.of(G, H), results, labels);

        String with = SuiteTable.markdown("t", List.of(G, H), results, labels,
                InputBounds.of(List.of(G, H), FidelityMode.REALISTIC_NO_PACK_GAIN, 2));

        assertThat(with).startsWith(plain.stripTrailing())
                .contains("### check half: how much of the gap any schedule can close")
                .contains("| g | 1x1x2 (2) | 6,000 | 7,333 | 7,667 | 9,000 | 8,000 | 55.6% |");
        assertThat(SuiteTable.markdown("t", List.of(G, H), results, labels, Map.of())).isEqualTo(plain);
    }
}
