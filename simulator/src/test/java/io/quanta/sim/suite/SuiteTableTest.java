package io.quanta.sim.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.testing.Traces;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Gap closed, the aggregates over a half, the table text, and run figures written and read back. */
class SuiteTableTest {

    private static final SuiteInput A = input("a", Half.TUNING, "x,0,1,100", "y,0,1,300");
    private static final SuiteInput B = input("b", Half.TUNING, "x,0,1,1000");
    private static final SuiteInput C = input("c", Half.CHECK, "x,0,1,50");

    private static SuiteInput input(String id, Half half, String... rows) {
        return new SuiteInput(id, half, Traces.of(rows), ClusterShape.parse("1x1x8"), "heavy", 2.5, 1);
    }

    private static RunResult result(double avg, double p99, double preemptions, int spread) {
        return new RunResult(avg, p99, preemptions, 0, 0, 10, spread, 1);
    }

    private static Map<String, Map<String, RunResult>> results() {
        Map<String, Map<String, RunResult>> r = new LinkedHashMap<>();
        r.put("a", Map.of("tiresias-las", result(300, 1000, 0.5, 4), "quanta", result(250, 900, 0.2, 1)));
        r.put("b", Map.of("tiresias-las", result(2000, 5000, 1.0, 2), "quanta", result(1900, 5500, 0.4, 0)));
        r.put("c", Map.of("tiresias-las", result(60, 100, 0.0, 0), "quanta", result(55, 100, 0.0, 0)));
        return r;
    }

    @Test
    void shouldMeasureTheShareOfTheGapToTheFloorThatARunCloses() {
        assertThat(SuiteTable.gapClosed(300, 250, 200)).isCloseTo(0.5, within(1e-12));
        assertThat(SuiteTable.gapClosed(300, 200, 200)).isCloseTo(1.0, within(1e-12));
        assertThat(SuiteTable.gapClosed(300, 350, 200)).isCloseTo(-0.5, within(1e-12));
        assertThat(SuiteTable.gapClosed(200, 190, 200)).isNaN();
    }

    @Test
    void shouldAggregateMeanAndWorstOverTheInputsOfAHalf() {
        SuiteTable.Aggregate a = SuiteTable.aggregate(List.of(A, B), results(), "quanta");

        assertThat(a.inputs()).isEqualTo(2);
        assertThat(a.meanGap()).isCloseTo((0.5 + 0.1) / 2, within(1e-12));
        assertThat(a.worstGap()).isCloseTo(0.1, within(1e-12));
        assertThat(a.worstGapInput()).isEqualTo("b");
        assertThat(a.p99().worstRatio()).isCloseTo(1.1, within(1e-12));
        assertThat(a.p99().worstInput()).isEqualTo("b");
        assertThat(a.p99WorseInputs()).isEqualTo(1);
        assertThat(a.meanPreemptions()).isCloseTo(0.3, within(1e-12));
        assertThat(a.meanBaselinePreemptions()).isCloseTo(0.75, within(1e-12));
        assertThat(a.spreadGangs()).isEqualTo(1);
        assertThat(a.baselineSpreadGangs()).isEqualTo(6);
    }

    @Test
    void shouldNotCountAP99WithinTheSimulatorsResolutionAsAbove() {
        assertThat(SuiteTable.p99Above(1_780_406.001, 1_780_406)).isFalse();
        assertThat(SuiteTable.p99Above(1_780_407.0, 1_780_406)).isFalse();
        assertThat(SuiteTable.p99Above(1_780_407.5, 1_780_406)).isTrue();

        Map<String, Map<String, RunResult>> r = new LinkedHashMap<>();
        r.put("a", Map.of("tiresias-las", result(300, 1000, 0.5, 0), "quanta", result(250, 1000.001, 0.2, 0)));
        r.put("b", Map.of("tiresias-las", result(2000, 5000, 1.0, 0), "quanta", result(1900, 5002, 0.4, 0)));
        assertThat(SuiteTable.aggregate(List.of(A, B), r, "quanta").p99WorseInputs()).isEqualTo(1);
    }

    @Test
    void shouldPrintOneSectionPerHalfWithMeanAndWorstRows() {
        String table = SuiteTable.markdown("t", List.of(A, B, C), results(), List.of("tiresias-las", "quanta"));

        assertThat(table).contains("## tuning half (2 inputs)", "## check half (1 inputs)")
                .contains("| a | 1x1x8 (8) | 2.50 | 200 | 300 | 1,000 | 0.50 | 0.0% | 250 (0.83) | 900 (0.90) | 0.20"
                        + " | 50.0% |")
                .contains("| **worst** | | | | | (1.00) | | 0.0% | | (1.10) | | 10.0% |")
                .contains("`quanta` over 2 inputs: gap closed mean 30.0%, worst 10.0% (b)")
                .contains("`quanta` over 1 inputs: gap closed mean 50.0%");
    }

    @Test
    void shouldCompareEachCandidateWithTheDefaultInputByInput() {
        Map<String, Map<String, RunResult>> r = results();
        r.put("a", Map.of("tiresias-las", result(300, 1000, 0.5, 4), "quanta", result(250, 900, 0.2, 1),
                "x", result(240, 900, 0.2, 1)));
        r.put("b", Map.of("tiresias-las", result(2000, 5000, 1.0, 2), "quanta", result(1900, 5500, 0.4, 0),
                "x", result(1900, 5500, 0.4, 0)));

        String table = SuiteTable.markdown("t", List.of(A, B), r, List.of("tiresias-las", "quanta", "x"));

        // a: gap 100 -> 50% and 60%, +10 points; b: equal
        assertThat(table).contains("- `x` against `quanta`, input by input: gap closed +5.0 points on average (95% "
                + "paired bootstrap interval +0.0 to +10.0), ahead on 1 and behind on 0 of 2 inputs");
        assertThat(SuiteTable.markdown("t", List.of(A, B), r, List.of("tiresias-las", "x")))
                .doesNotContain("input by input");
    }

    @Test
    void shouldReadBackTheFiguresItWrote(@TempDir Path dir) {
        RunResult r = new RunResult(12_345.678, 99_999.5, 0.123, 0.045, 2, 240, 17, 12.5);
        Path file = dir.resolve("result.properties");

        r.write(file);

        assertThat(RunResult.read(file)).isEqualTo(r);
    }

    @Test
    void shouldHoldAComputedRunAsItsFileHoldsIt(@TempDir Path dir) {
        RunResult computed = new RunResult(6_122.4347354321, 169_832.0000004, 1.0 / 3, 2.0 / 3, 0, 240, 17, 0.1234567);
        Path file = dir.resolve("result.properties");

        computed.write(file);

        assertThat(RunResult.read(file)).isEqualTo(computed);
        assertThat(computed.avgJct()).isEqualTo(6_122.434735);
        assertThat(computed.p99Jct()).isEqualTo(169_832.0);
    }

    @Test
    void shouldParseRunsWithLabelsAndParameters() {
        assertThat(RunSpec.parse("quanta")).isEqualTo(new RunSpec("quanta", "quanta", Map.of()));
        assertThat(RunSpec.parse("q-knob8=quanta:quanta.starvation-knob=8,migration.enabled=off"))
                .isEqualTo(new RunSpec("q-knob8", "quanta", Map.of("quanta.starvation-knob", "8",
                        "migration.enabled", "off")));
        assertThat(RunSpec.parse("x=quanta:a=1").policyParams()).containsEntry("policy", "quanta")
                .containsEntry("a", "1");
        assertThat(RunSpec.parse("t=quanta:tiresias.thresholds=1000,3250,7200,quanta.unpack=off").params())
                .isEqualTo(Map.of("tiresias.thresholds", "1000,3250,7200", "quanta.unpack", "off"));
    }
}
