package io.quanta.sim.suite;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * One run against another, input by input, on the gap closed: the mean difference, on how many inputs each is ahead,
 * and a 95% interval of the mean difference from a paired bootstrap over the inputs. Rounds of choosing a default on
 * the same inputs favour what fits them (issue 15: gains of one or two points on the tuning half shrank to a few
 * tenths on the check half); the interval says whether a difference stands out of the spread between inputs.
 * Deterministic: the resamples come from a fixed seed. Written here because none of the simulator's dependencies
 * offers a paired bootstrap, and it is a dozen lines.
 *
 * @param inputs inputs where both runs and the baseline have a result and the gap closed is defined
 * @param meanDifference mean over those inputs of (the run's gap closed - the reference's)
 * @param ahead inputs where the run closes more of the gap
 * @param behind inputs where it closes less
 * @param low the 2.5th percentile of the resampled mean differences
 * @param high the 97.5th percentile
 */
public record PairedComparison(int inputs, double meanDifference, int ahead, int behind, double low, double high) {

    /** Bootstrap resamples. */
    static final int RESAMPLES = 10_000;
    private static final long SEED = 15;

    /** {@code label} against {@code reference} over {@code inputs}; empty when no input has both. */
    public static Optional<PairedComparison> of(List<SuiteInput> inputs, Map<String, Map<String, RunResult>> results,
                                                String label, String reference) {
        List<Double> differences = new ArrayList<>();
        for (SuiteInput input : inputs) {
            Map<String, RunResult> byLabel = results.getOrDefault(input.id(), Map.of());
            RunResult base = byLabel.get(SuiteTable.BASELINE);
            RunResult run = byLabel.get(label);
            RunResult ref = byLabel.get(reference);
            if (base == null || run == null || ref == null) {
                continue;
            }
            double d = SuiteTable.gapClosed(base.avgJct(), run.avgJct(), input.floorSeconds())
                    - SuiteTable.gapClosed(base.avgJct(), ref.avgJct(), input.floorSeconds());
            if (!Double.isNaN(d)) {
                differences.add(d);
            }
        }
        return differences.isEmpty() ? Optional.empty() : Optional.of(of(differences));
    }

    /** The comparison of these per-input differences. */
    static PairedComparison of(List<Double> differences) {
        int n = differences.size();
        double[] d = differences.stream().mapToDouble(Double::doubleValue).toArray();
        double mean = Arrays.stream(d).sum() / n;
        int ahead = (int) Arrays.stream(d).filter(x -> x > 0).count();
        int behind = (int) Arrays.stream(d).filter(x -> x < 0).count();
        SplittableRandom random = new SplittableRandom(SEED);
        double[] means = new double[RESAMPLES];
        for (int r = 0; r < RESAMPLES; r++) {
            double sum = 0;
            for (int i = 0; i < n; i++) {
                sum += d[random.nextInt(n)];
            }
            means[r] = sum / n;
        }
        Arrays.sort(means);
        return new PairedComparison(n, mean, ahead, behind, means[(int) (0.025 * RESAMPLES)],
                means[(int) (0.975 * RESAMPLES) - 1]);
    }
}
