package io.quanta.chaos.scenario;

import io.quanta.chaos.infra.ChaosCluster;
import io.quanta.chaos.infra.ChaosStack;
import io.quanta.chaos.infra.NodeSpec;
import io.quanta.chaos.observe.Execution;
import io.quanta.chaos.observe.Invariants;
import io.quanta.chaos.observe.Stats;
import io.quanta.embedded.Await;
import io.quanta.streams.SchedulerConfigSection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gang: a job whose attempt spans two nodes; one member's connector is {@code kill -9}ed and restarted while the
 * other member is cut off by the proxy (so it cannot receive its KILL in time), and a third node has room for the
 * whole job. The restarted connector's first heartbeat tells the scheduler its member is gone; the job must not
 * start again before the cut-off member has ended the previous attempt (its fence), or two copies of the job run.
 * The crash scenario found this with a connector kill alone (the peers' KILLs then take milliseconds); the partition
 * makes it last seconds, so it is seen every time.
 */
public final class GangScenario implements Scenario {

    private static final Logger LOG = LoggerFactory.getLogger(GangScenario.class);
    private static final Duration RUNNING = Duration.ofMinutes(3);
    private static final String CUT = "gang-cut";
    private static final String KILLED = "gang-killed";
    private static final String SPARE = "gang-spare";
    private static final String JOB = "gang-0";

    /**
     * @param heartbeat   the connectors' heartbeat interval
     * @param fence       the connectors' fence timeout (below {@code nodeTimeout})
     * @param nodeTimeout the scheduler's node timeout
     * @param speed       time compression
     * @param jobSeconds  simulated length of the job (long enough to outlast the scenario)
     * @param timeout     how long each step may take
     */
    public record Config(Duration heartbeat, Duration fence, Duration nodeTimeout, double speed, long jobSeconds,
                         Duration timeout) {

        /** Fence 6 s (longer than a connector's restart, so a premature restart overlaps), node timeout 10 s. */
        public static final Config SHORT = new Config(Duration.ofMillis(500), Duration.ofSeconds(6),
                Duration.ofSeconds(10), 60, 36_000, Duration.ofMinutes(2));
        /** The defaults: fence 20 s, node timeout 30 s. */
        public static final Config FULL = new Config(Duration.ofSeconds(5), Duration.ofSeconds(20),
                Duration.ofSeconds(30), 60, 360_000, Duration.ofMinutes(3));
    }

    private final Config config;

    public GangScenario(Config config) {
        this.config = config;
    }

    @Override
    public String name() {
        return "gang";
    }

    @Override
    public ScenarioResult run(ChaosStack stack) {
        Report report = new Report(name());
        Map<String, String> settings = ScenarioRun.fifoWithTimeouts(config.nodeTimeout(), config.heartbeat());
        // place the gang across the two small nodes at once (skew-aware placement would wait for one node first)
        settings.put(SchedulerConfigSection.POLICY_PARAM_PREFIX + "placement.strategy", "anywhere");
        if (ChaosCluster.nodeSettingExists("node.fence.timeout.ms")) {
            settings.put("node.fence.timeout.ms", Long.toString(config.fence().toMillis()));
        }
        return ScenarioRun.onCluster(stack, name(), settings, report, this::run, stack.proxy()::heal);
    }

    private void run(ChaosCluster cluster, Report report) {
        cluster.startScheduler();
        cluster.awaitSchedulerRunning(RUNNING);
        cluster.startNode(new NodeSpec(CUT, 2, config.speed(), true));
        cluster.startNode(NodeSpec.of(KILLED, 2, config.speed()));
        cluster.awaitHeartbeat(CUT, -1, RUNNING);
        cluster.awaitHeartbeat(KILLED, -1, RUNNING);
        cluster.awaitNodesAlive(List.of(CUT, KILLED), RUNNING);
        cluster.submit(Jobs.job(JOB, "vc0", 4, config.jobSeconds()));
        try {
            ChaosCluster.awaitWhileAlive(cluster.scheduler(), JOB + " STARTED on both " + CUT + " and " + KILLED,
                    config.timeout(), () -> execution(cluster, 1, CUT).isPresent()
                            && execution(cluster, 1, KILLED).isPresent());
        } catch (RuntimeException e) {
            throw new IllegalStateException(e.getMessage() + "\nstatus API of " + JOB + ": "
                    + cluster.status().get("/jobs/" + JOB).map(Object::toString).orElse("(no answer)"), e);
        }
        cluster.startNode(NodeSpec.of(SPARE, 4, config.speed()));
        cluster.awaitHeartbeat(SPARE, -1, RUNNING);

        Instant cut = Instant.now();
        cluster.stack().proxy().partition();
        long epoch = cluster.latestEpoch(KILLED);
        cluster.killNode(KILLED);
        cluster.startNode(NodeSpec.of(KILLED, 2, config.speed()));
        cluster.awaitHeartbeat(KILLED, epoch, RUNNING);
        LOG.info("gang: {} cut off, {} killed and restarted", CUT, KILLED);
        try {
            Await.until(JOB + " started again", config.nodeTimeout().plus(config.timeout()),
                    () -> cluster.tail().events().stream().anyMatch(e -> e.value().getJobId().equals(JOB)
                            && e.value().getAttempt() > 1 && e.value().getType().name().equals("STARTED")));
        } catch (Await.ConditionTimeoutException e) {
            report.violation(e.getMessage());
        }
        // keep the member cut off past its fence timeout: it ends the attempt itself, as it would in production
        Duration held = Duration.between(cut, Instant.now());
        Duration least = config.fence().plusSeconds(2);
        if (held.compareTo(least) < 0) {
            io.quanta.chaos.infra.Faults.hold(least.minus(held));
        }
        Instant healed = Instant.now();
        cluster.stack().proxy().heal();
        report.info("partition length", Stats.seconds(Duration.between(cut, healed).toMillis()));
        try {
            Await.until("the end of attempt 1 on " + CUT, config.timeout(),
                    () -> execution(cluster, 1, CUT).filter(e -> !e.isOpen()).isPresent());
        } catch (Await.ConditionTimeoutException e) {
            report.violation(e.getMessage());
        }
        List<Execution> executions = Invariants.executions(cluster.tail().events(), cluster.tail().commands(),
                Map.of(KILLED, List.of(cut.toEpochMilli())));
        executions.stream().filter(e -> e.jobId().equals(JOB)).forEach(e -> report.info("execution", e.attempt()
                + " on " + e.nodeId() + ": " + Stats.seconds(e.startAt() - cut.toEpochMilli()) + " to "
                + (e.isOpen() ? "open" : Stats.seconds(e.endAt() - cut.toEpochMilli()) + " " + e.endType())
                + " after the fault"));
        List<String> overlaps = Invariants.attemptOverlaps(executions);
        report.expect("overlapping attempts of " + JOB, overlaps.size(), 0, overlaps);
    }

    private static Optional<Execution> execution(ChaosCluster cluster, int attempt, String node) {
        return Invariants.executions(cluster.tail().events(), List.of(), Map.of()).stream()
                .filter(e -> e.jobId().equals(JOB) && e.attempt() == attempt && e.nodeId().equals(node)).findFirst();
    }
}
