package io.quanta.audit.testing;

import io.quanta.audit.log.CellLog;
import io.quanta.core.config.PolicyConfig;
import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.engine.EngineSettings;
import io.quanta.sim.engine.FidelityMode;
import io.quanta.sim.engine.ProgressListener;
import io.quanta.sim.engine.SimulationEngine;
import io.quanta.sim.profile.ProfileAssigner;
import io.quanta.sim.trace.Trace;
import io.quanta.sim.trace.TraceJob;
import io.quanta.streams.SchedulerSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Audit logs made by the real topology under the simulator's event loop: a trace, a cluster, a policy, simulated
 * nodes (realistic throughput model, so preemptions and resumes cost time and telemetry flows).
 */
public final class SimulatedLogs {

    /** The cell every simulated node declares. */
    public static final String CELL = EngineSettings.DEFAULT_CELL;
    /** Heartbeat interval of the shared logs. */
    public static final Duration SHARED_HEARTBEAT = Duration.ofMinutes(5);

    private static final Map<String, CellLog> SHARED = new ConcurrentHashMap<>();

    private SimulatedLogs() {
    }

    /**
     * A log shared by the test classes of this JVM (made once): {@code jobs} jobs of the contended trace (seed 7) on
     * 2 racks x 2 servers x 8 GPUs with the given policy, heartbeats every 5 minutes, profile seed 11.
     */
    public static CellLog shared(String policy, int jobs) {
        return SHARED.computeIfAbsent(policy + "/" + jobs, k -> run(contended(jobs, 240, 7),
                new ClusterShape(2, 2, 8), settings(Map.of("policy", policy), SHARED_HEARTBEAT), SHARED_HEARTBEAT, 11));
    }

    /** The settings of a simulation with the given policy parameters and heartbeat interval. */
    public static SchedulerSettings settings(Map<String, String> policy, Duration heartbeat) {
        return SchedulerSettings.defaults().withPolicy(PolicyConfig.of(policy)).withNodeTimeout(heartbeat.multipliedBy(4));
    }

    /** Runs {@code trace} on {@code shape} and returns the cell's log. */
    public static CellLog run(Trace trace, ClusterShape shape, SchedulerSettings settings, Duration heartbeat,
                              long seed) {
        EngineSettings engine = EngineSettings.defaults().withHeartbeatInterval(heartbeat);
        try (RecordingCluster cluster = new RecordingCluster(settings, CELL)) {
            new SimulationEngine(trace, shape, FidelityMode.REALISTIC, ProfileAssigner.standard(seed), cluster,
                    engine, ProgressListener.NONE, System::nanoTime).run(settings.policy().policyName());
            return cluster.log(CELL);
        }
    }

    /**
     * A contended synthetic trace: {@code jobs} jobs arriving every {@code gapSeconds} on average, 1 to 8 GPUs,
     * durations from minutes to hours (a heavy tail, so the LAS queues demote and preempt).
     */
    public static Trace contended(int jobs, int gapSeconds, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<TraceJob> out = new ArrayList<>();
        long t = 0;
        int[] sizes = {1, 1, 1, 2, 2, 4, 8};
        for (int i = 0; i < jobs; i++) {
            t += random.nextInt(2 * gapSeconds + 1);
            long duration = random.nextInt(10) < 8 ? 60 + random.nextInt(1200) : 3600 + random.nextInt(4 * 3600);
            out.add(new TraceJob(String.format("job-%04d", i), t, sizes[random.nextInt(sizes.length)], duration,
                    "vc" + random.nextInt(3)));
        }
        return new Trace("contended-" + jobs, out);
    }
}
