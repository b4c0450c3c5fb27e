package io.quanta.sim.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.testing.Traces;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The score over phases: each input's gap closed averaged over the shifts, and the paired comparison on those. */
class PhaseTableTest {

    /** Floor 200 s. */
    private static final SuiteInput A = input("a", "x,0,1,100", "y,0,1,300");
    /** Floor 1,000 s. */
    private static final SuiteInput B = input("b", "x,0,1,1000");

    private static SuiteInput input(String id, String... rows) {
        return new SuiteInput(id, Half.TUNING, Traces.of(rows), ClusterShape.parse("1x1x8"), "heavy", 2.5, 1);
    }

    private static RunResult avg(double avgJct, double p99) {
        return new RunResult(avgJct, p99, 0.25, 0, 0, 10, 0, 1);
    }

    /** tiresias-las at 300 s (a) and 2,000 s (b); quanta and a candidate as given. */
    private static PhaseTable.Phase phase(long shift, double quantaA, double quantaB, double candA, double candB) {
        Map<String, Map<String, RunResult>> r = new LinkedHashMap<>();
        r.put("a", Map.of("tiresias-las", avg(300, 1000), "quanta", avg(quantaA, 1000), "cand", avg(candA, 1000.5)));
        r.put("b", Map.of("tiresias-las", avg(2000, 5000), "quanta", avg(quantaB, 5000), "cand", avg(candB, 5002)));
        return new PhaseTable.Phase(shift, r);
    }

    @Test
    void shouldAverageEachInputsGapOverThePhases() {
        // a: quanta closes 50% then 30%, b: 10% then 30%
        List<PhaseTable.Phase> phases = List.of(phase(0, 250, 1900, 240, 1900), phase(5, 270, 1700, 260, 1800));

        double[] means = PhaseTable.phaseMeans(List.of(A, B), phases, "quanta");

        assertThat(means[0]).isCloseTo(0.40, within(1e-12));
        assertThat(means[1]).isCloseTo(0.20, within(1e-12));
    }

    @Test
    void shouldLeaveAnInputOutWhenAPhaseLacksItsRun() {
        Map<String, Map<String, RunResult>> partial = new LinkedHashMap<>();
        partial.put("a", Map.of("tiresias-las", avg(300, 1000), "quanta", avg(250, 1000)));
        List<PhaseTable.Phase> phases = List.of(phase(0, 250, 1900, 240, 1900), new PhaseTable.Phase(3, partial));

        double[] means = PhaseTable.phaseMeans(List.of(A, B), phases, "quanta");

        assertThat(means[0]).isCloseTo(0.50, within(1e-12));
        assertThat(means[1]).isNaN();
    }

    @Test
    void shouldPrintEachPhaseAndTheScoreAgainstQuanta() {
        List<PhaseTable.Phase> phases = List.of(phase(0, 250, 1900, 240, 1900), phase(5, 270, 1700, 260, 1800));

        String table = PhaseTable.markdown("t", List.of(A, B), phases, List.of("tiresias-las", "quanta", "cand"));

        // cand: a 60% and 40% (mean 50%), b 10% and 20% (mean 15%); quanta 40% and 20%; cand's p99 is above
        // tiresias-las's on b only (a's is 0.5 s above, within the one-second resolution)
        assertThat(table)
                .contains("| quanta | 0 | 30.00% | 10.00% | 0 (x1.000) |  | - | 0.250 (0.250) |  |")
                .contains("| cand | 0 | 35.00% | 10.00% | 1 (x1.001) | b | - | 0.250 (0.250) | +5.0 (+0.0 to +10.0) |")
                .contains("| cand | 5 | 30.00% | 20.00% | 1 (x1.001) | b | - | 0.250 (0.250) | +0.0 (-10.0 to +10.0) |")
                .contains("- `quanta` over 2 phases: score 30.00% (worst input 20.00%)\n")
                .contains("- `cand` over 2 phases: score 32.50% (worst input 15.00%); against `quanta` +2.50 points")
                .contains("(95% paired interval -5.00 to +10.00), ahead on 1, behind on 1 of 2 inputs")
                .doesNotContain("| tiresias-las |");
    }

    @Test
    void shouldReadTheTopPercentBesideTheP99OnlyWhenEveryInputHasIt() {
        // the mean of the 1% longest JCTs: tiresias-las 2,000 s (a) and 9,000 s (b); cand 0.5 s above on a (within
        // the one-second resolution) and 1.1% above on b; quanta below or equal; input b of the second phase lacks it
        Map<String, Map<String, RunResult>> known = new LinkedHashMap<>();
        known.put("a", Map.of("tiresias-las", avg(300, 1000).withTopPercentJct(2000),
                "quanta", avg(250, 1000).withTopPercentJct(1990), "cand", avg(240, 1000).withTopPercentJct(2000.5)));
        known.put("b", Map.of("tiresias-las", avg(2000, 5000).withTopPercentJct(9000),
                "quanta", avg(1900, 5000).withTopPercentJct(9000), "cand", avg(1900, 5000).withTopPercentJct(9100)));
        Map<String, Map<String, RunResult>> partly = new LinkedHashMap<>(known);
        partly.put("b", Map.of("tiresias-las", avg(2000, 5000), "quanta", avg(1900, 5000).withTopPercentJct(9000),
                "cand", avg(1900, 5000).withTopPercentJct(9100)));

        String table = PhaseTable.markdown("t", List.of(A, B),
                List.of(new PhaseTable.Phase(0, known), new PhaseTable.Phase(5, partly)),
                List.of("tiresias-las", "quanta", "cand"));

        assertThat(table)
                .contains("| quanta | 0 | 30.00% | 10.00% | 0 (x1.000) |  | 0 (x1.000) | ")
                .contains("| cand | 0 | 35.00% | 10.00% | 0 (x1.000) |  | 1 (x1.011) | ")
                .contains("| cand | 5 | 35.00% | 10.00% | 0 (x1.000) |  | - | ");
        assertThat(SuiteTable.aggregate(List.of(A, B), known, "cand").top()).hasValueSatisfying(t -> {
            assertThat(t.aboveInputs()).containsExactly("b");
            assertThat(t.worstInput()).isEqualTo("b");
        });
    }

    @Test
    void shouldTakeTheMeanOfTheLongestHundredthAndAtLeastOneJob() {
        double[] two = {5, 1};
        double[] hundredAndOne = new double[101];
        for (int i = 0; i < hundredAndOne.length; i++) {
            hundredAndOne[i] = i;
        }

        assertThat(RunResult.topPercentMean(two)).isEqualTo(5.0);
        assertThat(RunResult.topPercentMean(hundredAndOne)).isEqualTo(99.5);
        assertThat(RunResult.topPercentMean(new double[0])).isNaN();
    }
}
