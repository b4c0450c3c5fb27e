package io.quanta.sim.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quanta.sim.Simulator;
import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.engine.EngineSettings;
import io.quanta.sim.engine.FidelityMode;
import io.quanta.sim.engine.ProgressListener;
import io.quanta.sim.engine.SimulationRun;
import io.quanta.sim.metrics.JobOutcome;
import io.quanta.sim.testing.Traces;
import io.quanta.sim.trace.Trace;
import io.quanta.sim.trace.TraceLoader;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A few hundred real Philly jobs through the real topology in both modes: everything finishes, nothing finishes faster
 * than its service time. Skipped when {@code ../shared/traces} is not next to the repository.
 */
class RealTraceSmokeTest {

    private static final int JOBS = 300;

    private static Trace slice() {
        Optional<Path> file = Traces.shared("philly_dev_slice_2000.csv");
        assumeTrue(file.isPresent(), "assumption: ../shared/traces/philly_dev_slice_2000.csv (next to the repository "
                + "root) is absent; the real-trace smoke run is skipped");
        return TraceLoader.load(file.get()).first(JOBS);
    }

    private static SimulationRun run(FidelityMode mode, String policy) {
        return new Simulator(TopologyScheduler::create, EngineSettings.defaults(), System::nanoTime)
                .run(slice(), ClusterShape.parse("2x12x8"), mode, Map.of("policy", policy), 1, ProgressListener.NONE);
    }

    private static void assertSane(SimulationRun run) {
        assertThat(run.summary().jobs()).isEqualTo(JOBS);
        assertThat(run.summary().unfinished()).isZero();
        assertThat(run.stats().stopReason()).isEqualTo("all jobs done");
        assertThat(run.stats().deadLetters()).isZero();
        for (JobOutcome job : run.outcomes()) {
            assertThat(job.jctSeconds().getAsDouble()).as(job.jobId()).isGreaterThanOrEqualTo(job.durationSeconds());
            assertThat(job.serversUsed()).as(job.jobId()).isBetween(1, job.numGpus());
        }
        assertThat(run.summary().utilisationAllocated()).isBetween(0.0, 1.0);
        assertThat(run.summary().utilisationUseful()).isLessThanOrEqualTo(run.summary().utilisationAllocated() + 1e-9);
    }

    @Test
    void shouldFinishEveryJobWhenTiresiasLasRunsInTiresiasCompatibleMode() {
        SimulationRun run = run(FidelityMode.TIRESIAS_COMPATIBLE, "tiresias-las");

        assertSane(run);
        assertThat(run.summary().utilisationUseful()).isEqualTo(run.summary().utilisationAllocated(),
                org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void shouldFinishEveryJobWhenQuantaRunsInRealisticMode() {
        assertSane(run(FidelityMode.REALISTIC, "quanta"));
    }
}
