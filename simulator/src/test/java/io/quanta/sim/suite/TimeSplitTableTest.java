package io.quanta.sim.suite;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.metrics.TimeSplit;
import io.quanta.sim.testing.Traces;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The section of the suite's table that says where the time beyond each job's duration goes. */
class TimeSplitTableTest {

    private static final SuiteInput A = input("a", Half.TUNING);
    private static final SuiteInput B = input("b", Half.TUNING);
    private static final SuiteInput C = input("c", Half.CHECK);

    private static SuiteInput input(String id, Half half) {
        return new SuiteInput(id, half, Traces.of("x,0,1,100"), ClusterShape.parse("1x1x8"), "heavy", 2.5, 1);
    }

    private static RunResult result(double avg, TimeSplit split) {
        return new RunResult(avg, avg, 0, 0, 0, 1, 0, 1, Double.NaN, Optional.ofNullable(split));
    }

    private static Map<String, Map<String, RunResult>> results() {
        Map<String, Map<String, RunResult>> r = new LinkedHashMap<>();
        r.put("a", Map.of("tiresias-las", result(400, new TimeSplit(100, 150, 50)),
                "quanta", result(250, new TimeSplit(10, 100, 40)), "old", result(260, null)));
        r.put("b", Map.of("tiresias-las", result(700, new TimeSplit(300, 250, 50)),
                "quanta", result(500, new TimeSplit(30, 290, 80)), "old", result(510, new TimeSplit(1, 2, 3))));
        r.put("c", Map.of("tiresias-las", result(60, null), "quanta", result(55, null)));
        return r;
    }

    @Test
    void shouldShowPerInputPartsTheirMeansAndSharesForTheRunsKnownOnEveryInputOfTheHalf() {
        String text = SuiteTable.markdown("t", List.of(A, B, C), results(),
                List.of("tiresias-las", "quanta", "old"));

        assertThat(text).contains("### tuning half: where the time beyond each job's duration goes")
                .contains("| input | tiresias-las | quanta |\n|---|---|---|\n")
                .contains("| a | 100 / 150 / 50 | 10 / 100 / 40 |")
                .contains("| **mean** | 200 / 200 / 50 | 20 / 195 / 60 |")
                .contains("- `quanta` over 2 inputs: the average job ends 275 s after its duration: 20 s first queueing"
                        + " (7.3%), 195 s waiting after its first start (70.9%), 60 s running beyond its duration"
                        + " (21.8%)")
                .doesNotContain("`old` over 2 inputs: the average job ends")
                .doesNotContain("check half: where the time");
    }

    @Test
    void shouldPrintNoSectionWhenNoRunsSplitIsKnown() {
        Map<String, Map<String, RunResult>> r = new LinkedHashMap<>();
        r.put("a", Map.of("tiresias-las", result(400, null), "quanta", result(250, null)));

        assertThat(SuiteTable.markdown("t", List.of(A), r, List.of("tiresias-las", "quanta")))
                .doesNotContain("where the time beyond");
    }
}
