package io.quanta.chaos.scenario;

import io.quanta.chaos.infra.ChaosCluster;
import io.quanta.chaos.infra.ChaosStack;
import io.quanta.chaos.infra.NodeSpec;
import io.quanta.node.NodeConfigSection;
import io.quanta.streams.SchedulerConfigSection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every scenario does around its own steps: a fresh cluster with the scenario's settings, an exception that
 * aborts the steps recorded as a violation, a clean-up that always runs, the report with the cluster's logs; and
 * the usual start of a scheduler with its simulated nodes.
 */
final class ScenarioRun {

    /** The scenario's own steps on its cluster. */
    @FunctionalInterface
    interface Steps {
        void run(ChaosCluster cluster, Report report);
    }

    /** How long the scheduler and each node may take to be up. */
    static final Duration RUNNING = Duration.ofMinutes(3);

    private static final Logger LOG = LoggerFactory.getLogger(ScenarioRun.class);

    private ScenarioRun() {
    }

    /**
     * Scheduler and node settings of the scenarios that cut nodes off or skew their clocks: {@code fifo}, a node
     * timeout and a heartbeat interval of the scenario's own (shorter ones in the CI versions).
     */
    static Map<String, String> fifoWithTimeouts(Duration nodeTimeout, Duration heartbeat) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put(SchedulerConfigSection.POLICY, "fifo");
        settings.put(SchedulerConfigSection.NODE_TIMEOUT_MS, Long.toString(nodeTimeout.toMillis()));
        settings.put(NodeConfigSection.HEARTBEAT_INTERVAL_MS, Long.toString(heartbeat.toMillis()));
        return settings;
    }

    /** Runs {@code steps} of scenario {@code name} on a new cluster, then {@code cleanUp}, whatever happened. */
    static ScenarioResult onCluster(ChaosStack stack, String name, Map<String, String> settings, Report report,
                                    Steps steps, Runnable cleanUp) {
        try (ChaosCluster cluster = ChaosCluster.create(stack, name + "-" + System.currentTimeMillis(), settings)) {
            try {
                steps.run(cluster, report);
            } catch (RuntimeException e) {
                LOG.error("{} scenario aborted", name, e);
                report.violation("scenario aborted: " + e);
            } finally {
                cleanUp.run();
            }
            return report.result(cluster.describeLogs());
        }
    }

    /**
     * Starts the scheduler and {@code count} simulated nodes named {@code <prefix>1, <prefix>2, ...}, and waits until
     * the scheduler runs and every node heartbeats; returns the node ids.
     */
    static List<String> schedulerAndNodes(ChaosCluster cluster, String prefix, int count, int gpusPerNode,
                                          double speed) {
        cluster.startScheduler();
        cluster.awaitSchedulerRunning(RUNNING);
        List<String> nodeIds = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            nodeIds.add(prefix + (i + 1));
            cluster.startNode(NodeSpec.of(nodeIds.get(i), gpusPerNode, speed));
        }
        nodeIds.forEach(id -> cluster.awaitHeartbeat(id, -1, RUNNING));
        return nodeIds;
    }
}
