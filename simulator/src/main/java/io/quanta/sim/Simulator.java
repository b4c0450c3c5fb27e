package io.quanta.sim;

import io.quanta.schemas.SchedulingDecision;
import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.engine.EngineParams;
import io.quanta.sim.engine.EngineSettings;
import io.quanta.sim.engine.FidelityMode;
import io.quanta.sim.engine.ProgressListener;
import io.quanta.sim.engine.ScheduledCluster;
import io.quanta.sim.engine.SchedulerFactory;
import io.quanta.sim.engine.SimulationEngine;
import io.quanta.sim.engine.SimulationRun;
import io.quanta.sim.profile.ProfileAssigner;
import io.quanta.sim.trace.Trace;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Runs one policy on one trace: a fresh scheduler from the {@link SchedulerFactory} (the real topology), simulated
 * nodes in the given fidelity mode, the seeded profile rule, and the event loop. The scheduler's node timeout is
 * four heartbeat intervals, so liveness never fires in a simulation where nodes never fail.
 */
public final class Simulator {

    private final SchedulerFactory schedulers;
    private final EngineSettings settings;
    private final LongSupplier nanoTime;

    /**
     * @param schedulers makes the scheduler of each run
     * @param settings event-loop knobs
     * @param nanoTime wall clock, only to measure runs
     */
    public Simulator(SchedulerFactory schedulers, EngineSettings settings, LongSupplier nanoTime) {
        this.schedulers = Objects.requireNonNull(schedulers, "schedulers");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    }

    /** The node timeout given to the scheduler: four heartbeat intervals. */
    public Duration nodeTimeout() {
        return settings.heartbeatInterval().multipliedBy(4);
    }

    /**
     * Simulates {@code trace} on {@code cluster} with the policy of {@code policyParams} ({@code policy} = name); its
     * {@code sim.} keys ({@link EngineParams}) set the run's engine settings and do not reach the policy.
     *
     * @param progress told after each step
     * @return the outcome, labelled with the policy name
     */
    public SimulationRun run(Trace trace, ClusterShape cluster, FidelityMode mode, Map<String, String> policyParams,
                             long seed, ProgressListener progress) {
        return run(trace, cluster, mode, policyParams, seed, progress, decision -> { });
    }

    /** As above, and every decision the scheduler writes is handed to {@code decisionLog}, in output order. */
    public SimulationRun run(Trace trace, ClusterShape cluster, FidelityMode mode, Map<String, String> policyParams,
                             long seed, ProgressListener progress, Consumer<SchedulingDecision> decisionLog) {
        String policy = Objects.requireNonNull(policyParams.get("policy"), "policyParams needs 'policy'");
        EngineSettings run = EngineParams.apply(settings, policyParams);
        try (ScheduledCluster scheduler = schedulers.create(EngineParams.policyOnly(policyParams), nodeTimeout())) {
            return new SimulationEngine(trace, cluster, mode, ProfileAssigner.standard(seed), scheduler, run,
                    progress, nanoTime, decisionLog).run(policy);
        }
    }
}
