package io.quanta.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.sim.engine.EngineSettings;
import io.quanta.sim.engine.FidelityMode;
import io.quanta.sim.engine.SimulationRun;
import io.quanta.sim.topology.TopologyScheduler;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulateCommandTest {

    @TempDir
    Path dir;

    @Test
    void shouldWriteOneDirectoryPerPolicyAndATableWithRatiosWhenComparing() throws Exception {
        Path trace = dir.resolve("t.csv");
        Files.writeString(trace, "job_id,submit_time_s,num_gpus,duration_s\na,0,1,100\nb,10,1,50\nc,20,1,10\n");
        SimulationOptions options = new SimulationOptions(trace, 0, io.quanta.sim.cluster.ClusterShape.parse("1x1x1"),
                "quanta", Map.of(), 1, FidelityMode.TIRESIAS_COMPATIBLE, List.of("fifo", "srtf-oracle"),
                dir.resolve("out"), false, false);
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        List<SimulationRun> runs = new SimulateCommand(TopologyScheduler::create, EngineSettings.defaults(),
                System::nanoTime).execute(options, new PrintStream(out, true, StandardCharsets.UTF_8), System.err);

        assertThat(runs).extracting(SimulationRun::label).containsExactly("fifo", "srtf-oracle");
        assertThat(dir.resolve("out/fifo/jobs.csv")).exists();
        assertThat(dir.resolve("out/srtf-oracle/summary.json")).exists();
        assertThat(dir.resolve("out/report.html")).exists();
        assertThat(Files.readString(dir.resolve("out/comparison.md"))).contains("| srtf-oracle |");
        // fifo: JCTs 100, 140, 140; srtf-oracle: b preempts a at 10, c preempts b at 20: JCTs 160, 60, 10
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("x fifo", "srtf-oracle");
        assertThat(runs.get(0).summary().avgJct()).isCloseTo(380 / 3.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(runs.get(1).summary().avgJct()).isCloseTo(230 / 3.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(dir.resolve("out/fifo/decisions.jsonl")).doesNotExist();
    }

    @Test
    void shouldWriteEveryDecisionOfTheRunAsOneJsonRecordPerLineWhenAsked() throws Exception {
        Path trace = dir.resolve("t.csv");
        Files.writeString(trace, "job_id,submit_time_s,num_gpus,duration_s\na,0,1,100\nb,10,1,50\nc,20,1,10\n");
        SimulationOptions options = new SimulationOptions(trace, 0, io.quanta.sim.cluster.ClusterShape.parse("1x1x1"),
                "srtf-oracle", Map.of(), 1, FidelityMode.TIRESIAS_COMPATIBLE, List.of(), dir.resolve("out"), false,
                true);

        SimulationRun run = new SimulateCommand(TopologyScheduler::create, EngineSettings.defaults(), System::nanoTime)
                .execute(options, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                        System.err).get(0);

        List<String> lines = Files.readAllLines(dir.resolve("out/decisions.jsonl")).stream()
                .filter(l -> !l.isBlank()).toList();
        long counted = run.decisionCounts().values().stream().mapToLong(Number::longValue).sum();
        assertThat(lines).hasSize((int) counted);
        var reader = new org.apache.avro.specific.SpecificDatumReader<io.quanta.schemas.SchedulingDecision>(
                io.quanta.schemas.SchedulingDecision.getClassSchema());
        List<io.quanta.schemas.SchedulingDecision> decisions = new java.util.ArrayList<>();
        for (String line : lines) {
            decisions.add(reader.read(null, org.apache.avro.io.DecoderFactory.get().jsonDecoder(
                    io.quanta.schemas.SchedulingDecision.getClassSchema(), line)));
        }
        // srtf-oracle: b preempts a at 10 s, c preempts b at 20 s
        assertThat(decisions).filteredOn(d -> d.getType() == io.quanta.schemas.DecisionType.SUSPEND)
                .extracting(d -> d.getJobId().toString()).containsExactly("a", "b");
        assertThat(decisions).extracting(io.quanta.schemas.SchedulingDecision::getSeq).isSorted();
    }

    @Test
    void shouldRunTheRealTopologyWithTheConnectorsTelemetryWindowAndRefuseAnUnknownSimulationKey() throws Exception {
        Path trace = dir.resolve("t.csv");
        StringBuilder rows = new StringBuilder("job_id,submit_time_s,num_gpus,duration_s\n");
        for (int i = 0; i < 12; i++) {
            rows.append("j").append(i).append(',').append(i * 7).append(",1,").append(300 + 40 * i).append('\n');
        }
        Files.writeString(trace, rows);
        SimulationOptions options = new SimulationOptions(trace, 0, io.quanta.sim.cluster.ClusterShape.parse("1x1x4"),
                "quanta", Map.of("sim.telemetry-window-s", "10"), 1, FidelityMode.REALISTIC, List.of(),
                dir.resolve("out"), false, false);

        SimulationRun run = new SimulateCommand(TopologyScheduler::create, EngineSettings.defaults(), System::nanoTime)
                .execute(options, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                        System.err).get(0);

        assertThat(run.summary().unfinished()).isZero();
        assertThat(run.stats().stopReason()).isEqualTo("all jobs done");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new SimulationOptions(trace, 0,
                        io.quanta.sim.cluster.ClusterShape.parse("1x1x4"), "quanta", Map.of("sim.window", "10"), 1,
                        FidelityMode.REALISTIC, List.of(), dir.resolve("out2"), false, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown simulation key 'sim.window'");
    }
}
