package io.quanta.sim.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.sim.Simulator;
import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.engine.EngineSettings;
import io.quanta.sim.engine.FidelityMode;
import io.quanta.sim.engine.ProgressListener;
import io.quanta.sim.engine.SimulationRun;
import io.quanta.sim.report.JobCsvWriter;
import io.quanta.sim.testing.Traces;
import io.quanta.sim.trace.Trace;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Same trace, cluster, mode, policy and seed: the same per-job CSV, byte for byte. */
class DeterminismTest {

    private static Trace syntheticTrace() {
        Random random = new Random(2024);
        List<String> rows = new ArrayList<>();
        long t = 0;
        int[] sizes = {1, 1, 1, 1, 1, 1, 2, 4, 8, 16};
        for (int i = 0; i < 120; i++) {
            t += random.nextInt(120);
            long duration = 30 + (long) Math.exp(4 + random.nextDouble() * 6);
            rows.add(String.format("j%03d,%d,%d,%d", i, t, sizes[random.nextInt(sizes.length)], duration));
        }
        return Traces.of(rows.toArray(String[]::new));
    }

    private static String csv(String policy, long seed) throws Exception {
        return csv(policy, seed, EngineSettings.defaults());
    }

    private static String csv(String policy, long seed, EngineSettings settings) throws Exception {
        SimulationRun run = new Simulator(TopologyScheduler::create, settings, System::nanoTime)
                .run(syntheticTrace(), ClusterShape.parse("1x4x8"), FidelityMode.REALISTIC,
                        Map.of("policy", policy), seed, ProgressListener.NONE);
        StringWriter out = new StringWriter();
        JobCsvWriter.write(out, run.outcomes());
        return out.toString();
    }

    @Test
    void shouldWriteIdenticalPerJobCsvWhenRunTwiceWithTheSameSeed() throws Exception {
        String first = csv("quanta", 7);
        String second = csv("quanta", 7);

        assertThat(second).isEqualTo(first);
        assertThat(first.lines().count()).isEqualTo(121);
        assertThat(first).doesNotContain(",QUEUED");
    }

    @Test
    void shouldDecideTheSameWhateverTheHeartbeatInterval() throws Exception {
        String hourly = csv("tiresias-las", 7, EngineSettings.defaults().withHeartbeatInterval(Duration.ofHours(1)));
        String daily = csv("tiresias-las", 7, EngineSettings.defaults().withHeartbeatInterval(Duration.ofHours(24)));

        assertThat(daily).isEqualTo(hourly);
    }

    @Test
    void shouldGiveOtherModelsWhenTheSeedChanges() throws Exception {
        String seven = csv("tiresias-las", 7);
        String eight = csv("tiresias-las", 8);

        assertThat(eight).isNotEqualTo(seven);
    }
}
