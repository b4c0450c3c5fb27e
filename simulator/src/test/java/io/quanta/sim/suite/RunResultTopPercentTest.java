package io.quanta.sim.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.report.JobCsvWriter;
import io.quanta.sim.testing.Traces;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mean JCT of a run's 1% longest jobs, the reading of the tail beside the p99's one rank: kept in the result file,
 * and for a file written before it was kept, read from the run's {@code jobs.csv} when that is there and sound.
 */
class RunResultTopPercentTest {

    private static final SuiteInput INPUT = new SuiteInput("w00-heavy", Half.TUNING, Traces.of(
            IntStream.range(0, 250).mapToObj(i -> "j" + i + "," + (20 * i) + ",1," + (100 + 37 * (i % 11)))
                    .toArray(String[]::new)), ClusterShape.parse("1x1x8"), "heavy", 2.5, 1);

    @TempDir
    Path dir;

    private OneRun quanta() {
        return new OneRun(dir, INPUT, "quanta");
    }

    @Test
    void shouldKeepTheMeanOfTheThreeLongestOfTwoHundredAndFiftyJobsAndReadItBack() throws Exception {
        RunResult fresh = quanta().run(false);

        double[] jcts = Files.readAllLines(quanta().runDir().resolve("jobs.csv")).stream().skip(1)
                .mapToDouble(l -> Double.parseDouble(l.split(",")[8])).sorted().toArray();
        assertThat(jcts).hasSize(250);
        assertThat(fresh.topPercentJct()).isCloseTo((jcts[247] + jcts[248] + jcts[249]) / 3,
                org.assertj.core.api.Assertions.within(1e-6));
        assertThat(RunResult.read(quanta().runDir().resolve(SuiteRunner.RESULT_FILE))).isEqualTo(fresh);
    }

    @Test
    void shouldRefuseAResultFileWithANegativeOrInfiniteFigureNamingIt() throws Exception {
        quanta().run(false);
        Path file = quanta().runDir().resolve(SuiteRunner.RESULT_FILE);
        String kept = Files.readString(file);

        for (String[] forged : new String[][] {{"top_percent_jct_s=[0-9.]+", "top_percent_jct_s=Infinity"},
            {"avg_jct_s=[0-9.]+", "avg_jct_s=-5"}, {"unfinished=0", "unfinished=-1"}}) {
            Files.writeString(file, kept.replaceFirst(forged[0], forged[1]));

            assertThatThrownBy(() -> RunResult.read(file)).isInstanceOf(RunResult.Malformed.class)
                    .hasMessageContaining("malformed run result " + file)
                    .hasMessageContaining(forged[1].substring(forged[1].indexOf('=') + 1));
        }
    }

    @Test
    void shouldReadAnOlderFilesTopPercentFromItsJobsAndLeaveItUnknownWhenTheyAreNotSound() throws Exception {
        RunResult fresh = quanta().run(false);
        Path file = quanta().runDir().resolve(SuiteRunner.RESULT_FILE);
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        p.remove(RunResult.TOP_PERCENT);
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            p.store(w, null);
        }
        assertThat(RunResult.read(file).topPercentJct()).isNaN();

        assertThat(quanta().run(true)).isEqualTo(fresh);

        Path jobs = quanta().runDir().resolve("jobs.csv");
        String current = Files.readString(jobs);
        // an older build's jobs.csv, without the running_s column, is read too
        Files.writeString(jobs, current.replaceAll("(?m),[^,\n]*$", ""));
        assertThat(Files.readAllLines(jobs).get(0)).isEqualTo(JobCsvWriter.HEADER_WITHOUT_RUNNING);
        assertThat(quanta().run(true).topPercentJct()).isEqualTo(fresh.topPercentJct());
        Files.writeString(jobs, current);

        Files.writeString(jobs, Files.readString(jobs) + "forged,row\n");
        assertThat(quanta().run(true).topPercentJct()).isNaN();
        Files.writeString(jobs, Files.readString(jobs).replace("forged,row\n", "").replaceFirst(",FINISHED", ",X")
                .replaceFirst("\n(j[0-9]+,vc,[a-z0-9-]+,1,[0-9]+,[0-9.]+,[0-9.]+,[0-9.]+,)[0-9.]+,", "\n$1NaN,"));
        assertThat(quanta().run(true).topPercentJct()).isNaN();
        Files.delete(jobs);
        assertThat(quanta().run(true).topPercentJct()).isNaN();
        assertThat(quanta().run(true).avgJct()).isEqualTo(fresh.avgJct());
    }
}
