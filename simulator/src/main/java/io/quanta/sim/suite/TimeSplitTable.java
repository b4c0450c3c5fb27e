package io.quanta.sim.suite;

import static io.quanta.sim.suite.SuiteTable.grouped;

import io.quanta.sim.metrics.TimeSplit;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the time beyond each job's duration goes, half by half ({@link TimeSplit}): per input and per run, the
 * average job's first queueing, its waiting without GPUs after the first start and its running beyond its duration;
 * then their means over the inputs and a line per run. Only runs whose split is known on every input of the half are
 * shown (runs read back from result files written before the split was kept have none), and nothing when none is.
 */
public final class TimeSplitTable {

    private TimeSplitTable() {
    }

    /** The labels of {@code labels} whose split is known on every one of {@code inputs}. */
    static List<String> known(List<SuiteInput> inputs, Map<String, Map<String, RunResult>> results,
                              List<String> labels) {
        return labels.stream().filter(label -> inputs.stream().allMatch(input -> split(results, input, label)
                .isPresent())).toList();
    }

    /** Appends the section of one half, with its heading; nothing when no run's split is known on all its inputs. */
    static void half(StringBuilder out, Half half, List<SuiteInput> inputs, Map<String, Map<String, RunResult>> results,
                     List<String> labels) {
        List<String> shown = known(inputs, results, labels);
        if (shown.isEmpty() || inputs.isEmpty()) {
            return;
        }
        out.append("\n### ").append(half.label()).append(" half: where the time beyond each job's duration goes\n\n");
        out.append("Per run, the average job's first queueing / waiting without GPUs after its first start (suspended,"
                + " waiting to resume) / running beyond its duration (slower while packed or spread, checkpoints and"
                + " restarts), over the finished jobs: when every job finished, the three add up to the average JCT minus"
                + " the floor. Seconds.\n\n");
        out.append("| input |");
        shown.forEach(label -> out.append(' ').append(label).append(" |"));
        out.append("\n|---|");
        shown.forEach(label -> out.append("---|"));
        out.append('\n');
        double[][] sums = new double[shown.size()][3];
        for (SuiteInput input : inputs) {
            out.append("| ").append(input.id()).append(" |");
            for (int i = 0; i < shown.size(); i++) {
                TimeSplit t = split(results, input, shown.get(i)).orElseThrow();
                out.append(' ').append(cell(t)).append(" |");
                sums[i][0] += t.firstQueue();
                sums[i][1] += t.waitingAfterStart();
                sums[i][2] += t.runningBeyond();
            }
            out.append('\n');
        }
        int n = inputs.size();
        List<TimeSplit> means = Arrays.stream(sums).map(sum -> new TimeSplit(sum[0] / n, sum[1] / n,
                sum[2] / n)).toList();
        out.append("| **mean** |");
        means.forEach(mean -> out.append(' ').append(cell(mean)).append(" |"));
        out.append("\n\n");
        for (int i = 0; i < shown.size(); i++) {
            TimeSplit mean = means.get(i);
            double total = mean.total();
            out.append("- `").append(shown.get(i)).append("` over ").append(n).append(" inputs: the average job ends ")
                    .append(grouped(total)).append(" s after its duration: ").append(grouped(mean.firstQueue()))
                    .append(" s first queueing (").append(share(mean.firstQueue(), total)).append("), ")
                    .append(grouped(mean.waitingAfterStart())).append(" s waiting after its first start (")
                    .append(share(mean.waitingAfterStart(), total)).append("), ").append(grouped(mean.runningBeyond()))
                    .append(" s running beyond its duration (").append(share(mean.runningBeyond(), total))
                    .append(")\n");
        }
    }

    private static Optional<TimeSplit> split(Map<String, Map<String, RunResult>> results, SuiteInput input,
                                             String label) {
        Map<String, RunResult> byLabel = results.get(input.id());
        RunResult r = byLabel == null ? null : byLabel.get(label);
        return r == null ? Optional.empty() : r.split();
    }

    private static String cell(TimeSplit t) {
        return grouped(t.firstQueue()) + " / " + grouped(t.waitingAfterStart()) + " / " + grouped(t.runningBeyond());
    }

    private static String share(double part, double total) {
        return total > 0 ? SuiteTable.percent(part / total) : "n/a";
    }
}
