package io.quanta.sim.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.metrics.TimeSplit;
import io.quanta.sim.testing.Traces;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the time beyond each job's duration goes ({@link TimeSplit}), on a real simulation that queues, packs and
 * preempts: the three parts add up to the average JCT minus the mean duration, agree with the run's {@code jobs.csv},
 * are kept in the result file and read back, and an older file without them reads as unknown.
 */
class RunResultTimeSplitTest {

    private static final SuiteInput INPUT = new SuiteInput("w00-heavy", Half.TUNING, Traces.of(
            IntStream.range(0, 250).mapToObj(i -> "j" + i + "," + (20 * i) + "," + (i % 7 == 0 ? 4 : 1) + ","
                    + (100 + 37 * (i % 11) + (i % 50 == 0 ? 9000 : 0))).toArray(String[]::new)),
            ClusterShape.parse("1x1x8"), "heavy", 2.5, 1);

    @TempDir
    Path dir;

    private OneRun quanta() {
        return new OneRun(dir, INPUT, "quanta");
    }

    @Test
    void shouldAddUpToTheAverageJctBeyondTheMeanDurationAndAgreeWithTheJobsFile() throws Exception {
        RunResult fresh = quanta().run(false);
        List<String[]> rows = Files.readAllLines(quanta().runDir().resolve("jobs.csv")).stream().skip(1)
                .map(l -> l.split(",")).toList();
        double meanDuration = rows.stream().mapToDouble(r -> Double.parseDouble(r[4])).average().orElseThrow();
        double meanRunningBeyond = rows.stream()
                .mapToDouble(r -> Double.parseDouble(r[14]) - Double.parseDouble(r[4])).average().orElseThrow();

        TimeSplit split = fresh.split().orElseThrow();
        assertThat(fresh.unfinished()).isZero();
        assertThat(fresh.preemptionsPerJob()).isGreaterThan(0);
        assertThat(split.total()).isCloseTo(fresh.avgJct() - meanDuration, within(1e-3));
        assertThat(split.runningBeyond()).isCloseTo(meanRunningBeyond, within(1e-3));
        assertThat(split.waitingAfterStart()).isGreaterThan(0);
        for (String[] row : rows) {
            // no job runs faster than alone at full speed, and none finishes before its nodes say it ended
            assertThat(Double.parseDouble(row[14])).as(row[0]).isGreaterThanOrEqualTo(Double.parseDouble(row[4]));
            assertThat(Double.parseDouble(row[8]) - Double.parseDouble(row[9]) - Double.parseDouble(row[14]))
                    .as(row[0]).isGreaterThanOrEqualTo(-1e-3);
        }
        assertThat(RunResult.read(quanta().runDir().resolve(SuiteRunner.RESULT_FILE))).isEqualTo(fresh);
        assertThat(quanta().run(true)).isEqualTo(fresh);
    }

    @Test
    void shouldReadAnOlderFileWithoutTheSplitAsUnknownAndRefuseOneWithPartOfIt() throws Exception {
        quanta().run(false);
        Path file = quanta().runDir().resolve(SuiteRunner.RESULT_FILE);
        String kept = Files.readString(file);

        Files.writeString(file, kept.replaceAll("(?m)^(first_queue_s|waiting_after_start_s|running_beyond_s)=.*\n",
                ""));
        assertThat(RunResult.read(file).split()).isEmpty();

        Files.writeString(file, kept.replaceAll("(?m)^waiting_after_start_s=.*\n", ""));
        assertThatThrownBy(() -> RunResult.read(file)).isInstanceOf(RunResult.Malformed.class)
                .hasMessageContaining("malformed run result " + file);

        Files.writeString(file, kept.replaceFirst("running_beyond_s=[-0-9.]+", "running_beyond_s=Infinity"));
        assertThatThrownBy(() -> RunResult.read(file)).isInstanceOf(RunResult.Malformed.class)
                .hasMessageContaining("running_beyond_s must be a finite number, got Infinity");
    }
}
