package io.quanta.sim.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.schemas.DecisionType;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.sim.Simulator;
import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.engine.EngineSettings;
import io.quanta.sim.engine.FidelityMode;
import io.quanta.sim.engine.ProgressListener;
import io.quanta.sim.trace.TraceLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The real topology fed telemetry at the node connector's cadence ({@code sim.telemetry-window-s}). */
class TelemetryWindowTopologyTest {

    /** The seconds after the origin of each CHANGE_QUEUE decision of job a. */
    private static List<Long> demotionsOfA(String window) {
        List<SchedulingDecision> decisions = new ArrayList<>();
        new Simulator(TopologyScheduler::create, EngineSettings.defaults(), System::nanoTime).run(
                TraceLoader.parse("t", "job_id,submit_time_s,num_gpus,duration_s\na,0,8,100000\nb,50000,1,100\n"),
                ClusterShape.parse("1x2x8"), FidelityMode.REALISTIC,
                Map.of("policy", "quanta", "sim.telemetry-window-s", window), 1, ProgressListener.NONE,
                decisions::add);
        long origin = EngineSettings.DEFAULT_ORIGIN.toEpochMilli();
        return decisions.stream()
                .filter(d -> d.getType() == DecisionType.CHANGE_QUEUE && "a".equals(d.getJobId()))
                .map(d -> (d.getStreamTime().toEpochMilli() - origin) / 1_000).toList();
    }

    @Test
    void shouldDemoteARunningJobAtItsThresholdWhenOnlyWindowedTelemetryCameSinceItStarted() {
        // 8 GPUs cross 3,250 GPU-s after 406 s and 7,200 after 900 s; the telemetry of the first window (at 10 s)
        // marked the cell for a pass at a tick already past, which hid the threshold's wake-up until b arrived at
        // 50,000 s, unless the simulated deployment's next heartbeat is stood in for
        assertThat(demotionsOfA("10")).containsExactly(406L, 900L);
        assertThat(demotionsOfA("0")).containsExactly(406L, 900L);
    }
}
