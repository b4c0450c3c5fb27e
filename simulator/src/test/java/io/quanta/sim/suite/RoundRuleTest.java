package io.quanta.sim.suite;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.testing.Traces;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The rounds' rule, condition by condition: preemptions, the p99 (inputs above and the worst ratio with its slack)
 * and the paired interval, at every phase; each row of the twenty-first round's verdict has its case here.
 */
class RoundRuleTest {

    /** Floor 200 s. */
    private static final SuiteInput A = input("a", "x,0,1,100", "y,0,1,300");
    /** Floor 1,000 s. */
    private static final SuiteInput B = input("b", "x,0,1,1000");
    private static final List<SuiteInput> INPUTS = List.of(A, B);

    private static SuiteInput input(String id, String... rows) {
        return new SuiteInput(id, Half.TUNING, Traces.of(rows), ClusterShape.parse("1x1x8"), "heavy", 2.5, 1);
    }

    private static RunResult r(double avgJct, double p99, double preemptionsPerJob) {
        return new RunResult(avgJct, p99, preemptionsPerJob, 0, 0, 10, 0, 1);
    }

    /** A run whose 1% longest jobs average {@code top} seconds. */
    private static RunResult r(double avgJct, double p99, double preemptionsPerJob, double top) {
        return new RunResult(avgJct, p99, preemptionsPerJob, 0, 0, 10, 0, 1, top);
    }

    /**
     * As {@link #phase} with the top percent known: tiresias-las's 1,200 s on a and 6,000 s on b, the default's above
     * on b only (x1.005); the candidate's {@code candTopA} and {@code candTopB}, its p99 x1.040 on b (above the rank's
     * limit, x1.020).
     */
    private static PhaseTable.Phase topPhase(double candTopA, double candTopB) {
        Map<String, Map<String, RunResult>> results = new LinkedHashMap<>();
        results.put("a", Map.of("tiresias-las", r(300, 1000, 0.3, 1200), "quanta", r(250, 1000, 0.25, 1200),
                "cand", r(240, 1000, 0.3, candTopA)));
        results.put("b", Map.of("tiresias-las", r(2000, 5000, 0.3, 6000), "quanta", r(1900, 5050, 0.25, 6030),
                "cand", r(1800, 5200, 0.3, candTopB)));
        return new PhaseTable.Phase(0, results);
    }

    /**
     * tiresias-las at 300 s and 2,000 s (p99 1,000 and 5,000 s, 0.3 preemptions per job); the default closes 50% and
     * 10% with its p99 above on b (x1.010) and {@code defaultPre} preemptions; the candidate as given.
     */
    private static PhaseTable.Phase phase(long shift, double defaultPre, RunResult candA, RunResult candB) {
        Map<String, Map<String, RunResult>> results = new LinkedHashMap<>();
        results.put("a", Map.of("tiresias-las", r(300, 1000, 0.3), "quanta", r(250, 1000, defaultPre), "cand", candA));
        results.put("b", Map.of("tiresias-las", r(2000, 5000, 0.3), "quanta", r(1900, 5050, defaultPre), "cand", candB));
        return new PhaseTable.Phase(shift, results);
    }

    /** A phase the candidate passes: 60% and 20%, p99 x1.018 on b (allowed x1.020), preemptions at the baseline's. */
    private static PhaseTable.Phase passing(long shift) {
        return phase(shift, 0.25, r(240, 1000, 0.3), r(1800, 5090, 0.3));
    }

    private static RoundRule.Verdict judge(PhaseTable.Phase... phases) {
        return RoundRule.judge(INPUTS, List.of(phases), "cand");
    }

    @Test
    void shouldFindACandidateEligibleThatGainsEverywhereWithinEveryLimit() {
        // ten points ahead on both inputs, p99 above on b only and within the slack, preemptions at tiresias-las's
        RoundRule.Verdict verdict = judge(passing(0), passing(5));

        assertThat(verdict.judged()).isTrue();
        assertThat(verdict.failures()).isEmpty();
        assertThat(verdict.eligible()).isTrue();
    }

    @Test
    void shouldHoldPreemptionsToTheBaselinesOrToTheDefaultsWhereTheDefaultIsAlreadyAbove() {
        assertThat(judge(phase(0, 0.25, r(240, 1000, 0.31), r(1800, 5090, 0.31))).failures())
                .containsExactly("shift 0 s: preemptions 0.310 per job above tiresias-las's 0.300");
        assertThat(judge(phase(0, 0.4, r(240, 1000, 0.35), r(1800, 5090, 0.35))).eligible()).isTrue();
        assertThat(judge(phase(0, 0.4, r(240, 1000, 0.45), r(1800, 5090, 0.45))).failures())
                .containsExactly("shift 0 s: preemptions 0.450 per job above the default's 0.400 (tiresias-las's"
                        + " 0.300)");
    }

    @Test
    void shouldCountTheInputsAboveTheBaselinesP99AndAllowTheDefaultsWorstRatioPlusOneHundredth() {
        assertThat(judge(phase(0, 0.25, r(240, 1002, 0.3), r(1800, 5090, 0.3))).failures())
                .containsExactly("shift 0 s: p99 above tiresias-las's on 2 inputs, more than the default's 1");
        assertThat(judge(phase(0, 0.25, r(240, 1000, 0.3), r(1800, 5200, 0.3))).failures())
                .containsExactly("shift 0 s: worst p99 ratio x1.0400 (b) above the allowed x1.0200 (the default's"
                        + " x1.0100 + 0.01)");
    }

    @Test
    void shouldAskForAPairedIntervalAboveZeroAtEveryPhase() {
        // ten points ahead on a, five behind on b at shift 7 s only
        RoundRule.Verdict verdict = judge(passing(0), phase(7, 0.25, r(240, 1000, 0.3), r(1950, 5090, 0.3)));

        assertThat(verdict.judged()).isTrue();
        assertThat(verdict.eligible()).isFalse();
        assertThat(verdict.failures()).singleElement().asString()
                .startsWith("shift 7 s: paired interval against the default -5.0 to +10.0 points");
    }

    @Test
    void shouldNotJudgeWhenAPhaseLacksTheDefaultsRuns() {
        Map<String, Map<String, RunResult>> partial = new LinkedHashMap<>();
        partial.put("a", Map.of("tiresias-las", r(300, 1000, 0.3), "cand", r(240, 1000, 0.3)));
        partial.put("b", Map.of("tiresias-las", r(2000, 5000, 0.3), "quanta", r(1900, 5050, 0.25),
                "cand", r(1800, 5090, 0.3)));

        RoundRule.Verdict verdict = judge(passing(0), new PhaseTable.Phase(3, partial));

        assertThat(verdict.judged()).isFalse();
        assertThat(verdict.eligible()).isFalse();
    }

    @Test
    void shouldReadTheTopPercentInPlaceOfTheRankWhenAsked() {
        // the rank fails (x1.040 on b), the top percent is at or below tiresias-las's on both inputs
        List<PhaseTable.Phase> phases = List.of(topPhase(1200, 5900));

        assertThat(RoundRule.judge(INPUTS, phases, "cand").failures())
                .containsExactly("shift 0 s: worst p99 ratio x1.0400 (b) above the allowed x1.0200 (the default's"
                        + " x1.0100 + 0.01)");
        assertThat(RoundRule.judge(INPUTS, phases, "cand", RoundRule.Tail.TOP_PERCENT).eligible()).isTrue();
    }

    @Test
    void shouldHoldTheTopPercentToTheDefaultsInputsAboveAndWorstRatioPlusOneHundredth() {
        assertThat(RoundRule.judge(INPUTS, List.of(topPhase(1210, 6030)), "cand", RoundRule.Tail.TOP_PERCENT)
                .failures()).containsExactly("shift 0 s: top 1% above tiresias-las's on 2 inputs, more than the"
                        + " default's 1");
        assertThat(RoundRule.judge(INPUTS, List.of(topPhase(1200, 6100)), "cand", RoundRule.Tail.TOP_PERCENT)
                .failures()).containsExactly("shift 0 s: worst top 1% ratio x1.0167 (b) above the allowed x1.0150"
                        + " (the default's x1.0050 + 0.01)");
    }

    @Test
    void shouldNotJudgeTheTopPercentWhereAPhaseDoesNotKnowIt() {
        // runs kept before the top percent was recorded: the rule is judged, the reading is not
        List<PhaseTable.Phase> phases = List.of(passing(0));

        assertThat(RoundRule.judge(INPUTS, phases, "cand").eligible()).isTrue();
        assertThat(RoundRule.judge(INPUTS, phases, "cand", RoundRule.Tail.TOP_PERCENT).judged()).isFalse();
    }

    @Test
    void shouldPrintTheVerdictUnderThePhasesScore() {
        String table = PhaseTable.markdown("t", INPUTS, List.of(phase(0, 0.25, r(240, 1000, 0.3),
                r(1800, 5200, 0.3))), List.of("tiresias-las", "quanta", "cand"));

        assertThat(table).contains("- `cand` by the rounds' rule under this model (against `quanta` at every shift):"
                + " not eligible: shift 0 s: worst p99 ratio x1.0400 (b) above the allowed x1.0200")
                .doesNotContain("in place of the p99 rank");
    }

    @Test
    void shouldPrintTheTopPercentReadingUnderTheRulesLineWhenEveryPhaseKnowsIt() {
        String table = PhaseTable.markdown("t", INPUTS, List.of(topPhase(1200, 5900)),
                List.of("tiresias-las", "quanta", "cand"));

        assertThat(table).contains("not eligible: shift 0 s: worst p99 ratio x1.0400 (b)")
                .contains("  - read with the mean of the 1% longest JCTs in place of the p99 rank (a reading, not the"
                        + " rule): meets every condition\n");
    }

    /** A phase where the candidate is {@code pointsA} and {@code pointsB} points from the default on a and b. */
    private static PhaseTable.Phase behind(long shift, double pointsA, double pointsB) {
        // gap closed on a = (300 - jct) / 100, on b = (2000 - jct) / 1000: a point is 1 s on a and 10 s on b
        return phase(shift, 0.25, r(250 - pointsA, 1000, 0.25), r(1900 - 10 * pointsB, 5050, 0.25));
    }

    private static RoundRule.Verdict nonInferior(PhaseTable.Phase... phases) {
        return RoundRule.judgeNonInferior(INPUTS, List.of(phases), "cand");
    }

    @Test
    void shouldFindACandidateThatLosesAFifthOfAPointNonInferiorThoughTheGainRuleRefusesIt() {
        RoundRule.Verdict verdict = nonInferior(behind(0, -0.2, 0), behind(3, -0.2, 0));

        assertThat(verdict.eligible()).isTrue();
        assertThat(RoundRule.judge(INPUTS, List.of(behind(0, -0.2, 0), behind(3, -0.2, 0)), "cand").failures())
                .hasSize(2).allSatisfy(f -> assertThat(f).contains("does not lie above 0"));
    }

    @Test
    void shouldRefuseAScoreMoreThanThreeTenthsOfAPointBelowTheDefaultsOverThePhases() {
        // -0.4 points on both inputs at both phases: the interval is -0.4 to -0.4, above -1, the score is not
        assertThat(nonInferior(behind(0, -0.4, -0.4), behind(3, -0.4, -0.4)).failures())
                .containsExactly("over the 2 phases: score -0.40 points against the default, below the allowed -0.30");
    }

    @Test
    void shouldReadTheMarginOverThePhasesNotPhaseByPhase() {
        // -1.6 points on a at shift 0 and +1.2 at shift 3 average to -0.2: no phase's interval is read
        assertThat(nonInferior(behind(0, -1.6, 0), behind(3, 1.2, 0)).eligible()).isTrue();
    }

    @Test
    void shouldRefuseAPairedIntervalReachingOnePointBelowZero() {
        // -1.6 on a, +1.2 on b: the mean -0.2 is within the margin, the interval's lower end is -1.6
        assertThat(nonInferior(behind(0, -1.6, 1.2)).failures()).singleElement().asString()
                .isEqualTo("over the 1 phases: paired interval against the default -1.60 to +1.20 points, its lower"
                        + " end not above -1.00");
    }

    @Test
    void shouldKeepThePreemptionAndP99ConditionsAtEveryPhaseForNonInferiority() {
        PhaseTable.Phase churns = phase(5, 0.25, r(250, 1000, 0.31), r(1900, 5050, 0.31));
        PhaseTable.Phase tail = phase(7, 0.25, r(250, 1000, 0.25), r(1900, 5200, 0.25));

        assertThat(nonInferior(behind(0, 0, 0), churns, tail).failures()).containsExactly(
                "shift 5 s: preemptions 0.310 per job above tiresias-las's 0.300",
                "shift 7 s: worst p99 ratio x1.0400 (b) above the allowed x1.0200 (the default's x1.0100 + 0.01)");
    }

    @Test
    void shouldPrintTheNonInferiorityVerdictUnderTheRulesLine() {
        String table = PhaseTable.markdown("t", INPUTS, List.of(behind(0, -0.2, 0)),
                List.of("tiresias-las", "quanta", "cand"));

        assertThat(table).contains("- `cand` by the rounds' rule under this model (against `quanta` at every shift):"
                        + " not eligible: shift 0 s: paired interval against the default")
                .contains("  - judged for non-inferiority (for a bound or a fix; over the shifts at most -0.3 points,"
                        + " interval above -1.0, the p99 and preemption conditions at every shift): meets every"
                        + " condition\n");
    }
}
