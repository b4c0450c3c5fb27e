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
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Guards the evaluation figures against accidental behaviour changes: every policy, in both fidelity modes, on a
 * fixed synthetic trace, must give the per-job CSV and decision counts whose digests are recorded in
 * {@code golden/decisions.properties}. Speed work, refactorings and changes to other policies must leave them alone.
 * When a policy is changed on purpose, the test prints the new digest: update the file in the same commit and re-run
 * the evaluation ({@code docs/evaluation.md}).
 */
class GoldenDecisionsTest {

    private static final Trace TRACE = trace();

    private static Trace trace() {
        Random random = new Random(20261122);
        List<String> rows = new ArrayList<>();
        long t = 0;
        int[] sizes = {1, 1, 1, 1, 1, 1, 1, 2, 2, 4, 8, 16};
        for (int i = 0; i < 160; i++) {
            t += random.nextInt(90);
            long duration = 20 + (long) Math.exp(3 + random.nextDouble() * 7);
            rows.add(String.format("g%03d,%d,%d,%d", i, t, sizes[random.nextInt(sizes.length)], duration));
        }
        return Traces.of(rows.toArray(String[]::new));
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "fifo, realistic", "srtf-oracle, realistic", "tiresias-las, realistic", "tiresias-gittins, realistic",
        "gandiva, realistic", "quanta, realistic",
        "fifo, tiresias-compatible", "tiresias-las, tiresias-compatible", "tiresias-gittins, tiresias-compatible",
        "gandiva, tiresias-compatible", "quanta, tiresias-compatible"})
    void shouldDecideExactlyAsRecordedWhenPolicyAndModeAreFixed(String policy, String mode) throws Exception {
        SimulationRun run = new Simulator(TopologyScheduler::create, EngineSettings.defaults(), System::nanoTime)
                .run(TRACE, ClusterShape.parse("1x3x8"), FidelityMode.parse(mode), Map.of("policy", policy), 3,
                        ProgressListener.NONE);
        StringWriter csv = new StringWriter();
        JobCsvWriter.write(csv, run.outcomes());
        String digest = sha256(csv + "\n" + new TreeMap<>(run.decisionCounts()));
        String key = policy + "." + mode;

        assertThat(digest)
                .as("decisions of %s in %s mode changed (new digest %s); if that is intended, update "
                        + "simulator/src/test/resources/golden/decisions.properties and re-run the evaluation",
                        policy, mode, digest)
                .isEqualTo(golden().getProperty(key));
        assertThat(csv.toString()).doesNotContain(",QUEUED", ",RUNNING");
    }

    private static Properties golden() throws IOException {
        Properties p = new Properties();
        try (InputStream in = GoldenDecisionsTest.class.getResourceAsStream("/golden/decisions.properties")) {
            if (in != null) {
                p.load(in);
            }
        }
        return p;
    }

    private static String sha256(String text) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(text.getBytes(StandardCharsets.UTF_8)));
    }
}
