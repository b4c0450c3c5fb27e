package io.quanta.sim.engine;

import java.time.Duration;
import java.util.Map;

/** Makes a fresh scheduler for one simulation run (one per policy in a comparison). */
@FunctionalInterface
public interface SchedulerFactory {

    /**
     * @param policyParams the policy configuration: {@code policy} = the registered name plus its parameters
     * @param nodeTimeout the node liveness timeout to configure, longer than the engine's heartbeat interval
     * @return a scheduler that has seen no input yet
     */
    ScheduledCluster create(Map<String, String> policyParams, Duration nodeTimeout);
}
