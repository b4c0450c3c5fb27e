package io.quanta.sim.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.sim.Simulator;
import io.quanta.sim.engine.EngineSettings;
import io.quanta.sim.engine.FidelityMode;
import io.quanta.sim.engine.ProgressListener;
import io.quanta.sim.engine.SimulationRun;
import io.quanta.sim.report.JobCsvWriter;
import io.quanta.sim.suite.DecisionFingerprint;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.util.Map;
import java.util.Properties;
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

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "fifo, realistic", "srtf-oracle, realistic", "tiresias-las, realistic", "tiresias-gittins, realistic",
        "gandiva, realistic", "quanta, realistic",
        "fifo, tiresias-compatible", "tiresias-las, tiresias-compatible", "tiresias-gittins, tiresias-compatible",
        "gandiva, tiresias-compatible", "quanta, tiresias-compatible"})
    void shouldDecideExactlyAsRecordedWhenPolicyAndModeAreFixed(String policy, String mode) throws Exception {
        SimulationRun run = new Simulator(TopologyScheduler::create, EngineSettings.defaults(), System::nanoTime)
                .run(DecisionFingerprint.probe(), DecisionFingerprint.CLUSTER, FidelityMode.parse(mode),
                        Map.of("policy", policy), DecisionFingerprint.SEED, ProgressListener.NONE);
        String digest = DecisionFingerprint.digest(run);
        String key = policy + "." + mode;

        assertThat(digest)
                .as("decisions of %s in %s mode changed (new digest %s); if that is intended, update "
                        + "simulator/src/test/resources/golden/decisions.properties and re-run the evaluation",
                        policy, mode, digest)
                .isEqualTo(golden().getProperty(key));
        StringWriter csv = new StringWriter();
        JobCsvWriter.write(csv, run.outcomes());
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
}
