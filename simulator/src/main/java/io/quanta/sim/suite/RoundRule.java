package io.quanta.sim.suite;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The rule by which the rounds of issue 15 let a candidate replace the default, as written in
 * {@code docs/evaluation-rounds.md} (the sixth round's conditions, at each phase since the thirteenth), for one model:
 * at every phase of the quantum, against the default ({@value PhaseTable#REFERENCE}) and {@value SuiteTable#BASELINE}
 * on the same inputs,
 * <ul>
 *   <li>preemptions per job at or below the baseline's, or, where the default's are already above the baseline's,
 *       at or below the default's;</li>
 *   <li>a p99 above the baseline's on no more inputs than the default's, and a worst p99 ratio at most the default's
 *       plus {@value #P99_RATIO_SLACK};</li>
 *   <li>a paired 95% interval of the gap closed against the default whose lower end is above 0.</li>
 * </ul>
 * A candidate is eligible when it meets them under each of the three models; the rounds then choose the highest
 * score. Kept in code so that a round reads its verdict off the suite's own output instead of working out the limits
 * by hand (the twenty-first round's limit, the default's x1.0159 plus 0.01, was such a sum); the text of the rule
 * stays the authority, and this class follows it.
 *
 * <p>{@link Tail#TOP_PERCENT} reads the same conditions with the mean JCT of each input's 1% longest jobs in place of
 * the p99 rank: not the rule, a reading for the team, who decide whether a later rule reads the whole top percent
 * ({@code docs/evaluation.md}, "The p99 rank against the whole top percent"). The suite prints it beside the rule's
 * verdict so that every round shows both without a script of its own.
 *
 * <p>{@link #judgeNonInferior} is the rule the twenty-eighth round wrote for a bound or a fix of a defect, which need
 * not gain but must not lose: the same p99 and preemption conditions at every phase, and in place
 * of an interval above 0 at every phase, over the phases a score at most {@value #NON_INFERIORITY_MARGIN} (0.3 points)
 * below the default's with the lower end of its paired interval above -{@value #NON_INFERIORITY_FLOOR} (1 point);
 * single phases move single inputs by several points, so the margin is read over the phases (the lesson of the
 * twenty-sixth round, whose bound was judged by a margin at every phase).
 */
public final class RoundRule {

    /** How far above the default's worst p99 ratio a candidate's may lie. */
    public static final double P99_RATIO_SLACK = 0.01;

    /** How far below the default's score over the phases a candidate judged for non-inferiority may lie. */
    public static final double NON_INFERIORITY_MARGIN = 0.003;

    /** How far below 0 the lower end of that difference's paired 95% interval may lie. */
    public static final double NON_INFERIORITY_FLOOR = 0.01;

    private RoundRule() {
    }

    /** Which measure of the tail the p99 conditions read. */
    public enum Tail {
        /** The 99th percentile of the JCTs, one rank (the rule as written). */
        P99_RANK("p99"),
        /** The mean JCT of the 1% longest jobs ({@link SuiteTable.Aggregate#top}; a reading, not the rule). */
        TOP_PERCENT("top 1%");

        private final String label;

        Tail(String label) {
            this.label = label;
        }

        /** This measure's figures of one column at one phase, or empty when they are not known. */
        private Optional<SuiteTable.TailAbove> of(SuiteTable.Aggregate a) {
            return this == P99_RANK ? Optional.of(a.p99()) : a.top();
        }
    }

    /**
     * What keeps {@code label} from being eligible under this model, phase by phase, in the phases' order; empty when
     * it meets every condition at every phase, or empty with {@code judged = false} when a phase lacks the runs the
     * rule reads.
     *
     * @param judged false when some phase lacks the candidate's, the default's or the baseline's runs
     * @param failures each condition not met, with its phase and figures
     */
    public record Verdict(boolean judged, List<String> failures) {

        public Verdict {
            failures = List.copyOf(failures);
        }

        /** True when judged and no condition failed. */
        public boolean eligible() {
            return judged && failures.isEmpty();
        }
    }

    /** Judges {@code label} against the default at each of {@code phases}, by the rule as written. */
    public static Verdict judge(List<SuiteInput> inputs, List<PhaseTable.Phase> phases, String label) {
        return judge(inputs, phases, label, Tail.P99_RANK);
    }

    /**
     * Judges {@code label} against the default at each of {@code phases}, its p99 conditions reading {@code tail};
     * not judged when a phase lacks that figure for the candidate or the default (files kept before it).
     */
    public static Verdict judge(List<SuiteInput> inputs, List<PhaseTable.Phase> phases, String label, Tail tail) {
        List<String> failures = new ArrayList<>();
        for (PhaseTable.Phase phase : phases) {
            if (!judgePhase(inputs, phase, label, tail, true, failures)) {
                return new Verdict(false, List.of());
            }
        }
        return new Verdict(true, failures);
    }

    /**
     * Judges {@code label} for non-inferiority against the default: the p99 and preemption conditions at each of
     * {@code phases}, and over the phases (each input's gap closed averaged over them, as the score) a mean difference
     * of at least -{@link #NON_INFERIORITY_MARGIN} whose paired interval's lower end is above
     * -{@link #NON_INFERIORITY_FLOOR}.
     */
    public static Verdict judgeNonInferior(List<SuiteInput> inputs, List<PhaseTable.Phase> phases, String label) {
        List<String> failures = new ArrayList<>();
        for (PhaseTable.Phase phase : phases) {
            if (!judgePhase(inputs, phase, label, Tail.P99_RANK, false, failures)) {
                return new Verdict(false, List.of());
            }
        }
        List<Double> differences = PhaseTable.differencesFromReference(inputs, phases, label);
        if (differences.isEmpty()) {
            return new Verdict(false, List.of());
        }
        PairedComparison c = PairedComparison.of(differences);
        String over = "over the " + phases.size() + " phases: ";
        if (c.meanDifference() < -NON_INFERIORITY_MARGIN) {
            failures.add(over + "score " + points2(c.meanDifference()) + " points against the default, below the"
                    + " allowed " + points2(-NON_INFERIORITY_MARGIN));
        }
        if (!(c.low() > -NON_INFERIORITY_FLOOR)) {
            failures.add(over + "paired interval against the default " + points2(c.low()) + " to "
                    + points2(c.high()) + " points, its lower end not above " + points2(-NON_INFERIORITY_FLOOR));
        }
        return new Verdict(true, failures);
    }

    /**
     * Adds to {@code failures} the conditions {@code label} fails at {@code phase} (the paired interval above 0 only
     * when {@code intervalAboveZero}); false when the phase lacks the runs or figures the conditions read.
     */
    private static boolean judgePhase(List<SuiteInput> inputs, PhaseTable.Phase phase, String label, Tail tail,
                                      boolean intervalAboveZero, List<String> failures) {
        SuiteTable.Aggregate candidate = SuiteTable.aggregate(inputs, phase.results(), label);
        SuiteTable.Aggregate reference = SuiteTable.aggregate(inputs, phase.results(), PhaseTable.REFERENCE);
        Optional<PairedComparison> paired = PairedComparison.of(inputs, phase.results(), label,
                PhaseTable.REFERENCE);
        Optional<SuiteTable.TailAbove> candidateTail = tail.of(candidate);
        Optional<SuiteTable.TailAbove> referenceTail = tail.of(reference);
        if (candidate.inputs() == 0 || candidate.inputs() != reference.inputs() || paired.isEmpty()
                || candidateTail.isEmpty() || referenceTail.isEmpty()) {
            return false;
        }
        String at = "shift " + phase.shift() + " s: ";
        double baselinePre = candidate.meanBaselinePreemptions();
        double allowedPre = Math.max(reference.meanPreemptions(), baselinePre);
        if (candidate.meanPreemptions() > allowedPre) {
            failures.add(at + "preemptions " + f(candidate.meanPreemptions()) + " per job above "
                    + (allowedPre == baselinePre ? SuiteTable.BASELINE + "'s " + f(baselinePre)
                            : "the default's " + f(allowedPre) + " (" + SuiteTable.BASELINE + "'s "
                            + f(baselinePre) + ")"));
        }
        SuiteTable.TailAbove cand = candidateTail.get();
        SuiteTable.TailAbove ref = referenceTail.get();
        if (cand.aboveInputs().size() > ref.aboveInputs().size()) {
            failures.add(at + tail.label + " above " + SuiteTable.BASELINE + "'s on " + cand.aboveInputs().size()
                    + " inputs, more than the default's " + ref.aboveInputs().size());
        }
        double allowedRatio = ref.worstRatio() + P99_RATIO_SLACK;
        if (cand.worstRatio() > allowedRatio) {
            failures.add(at + "worst " + tail.label + " ratio x" + f4(cand.worstRatio()) + " ("
                    + cand.worstInput() + ") above the allowed x" + f4(allowedRatio) + " (the default's x"
                    + f4(ref.worstRatio()) + " + " + P99_RATIO_SLACK + ")");
        }
        PairedComparison c = paired.get();
        if (intervalAboveZero && !(c.low() > 0)) {
            failures.add(at + "paired interval against the default " + SuiteTable.points(c.low()) + " to "
                    + SuiteTable.points(c.high()) + " points does not lie above 0");
        }
        return true;
    }

    /** Points of gap closed with two decimals: the margins over the phases are fractions of a point. */
    private static String points2(double v) {
        return String.format(Locale.ROOT, "%+.2f", 100 * v);
    }

    private static String f(double v) {
        return SuiteTable.fixed(v, 3);
    }

    private static String f4(double v) {
        return SuiteTable.fixed(v, 4);
    }
}
