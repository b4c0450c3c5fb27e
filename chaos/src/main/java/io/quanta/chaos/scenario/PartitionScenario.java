package io.quanta.chaos.scenario;

import io.quanta.chaos.infra.ChaosCluster;
import io.quanta.chaos.infra.ChaosStack;
import io.quanta.chaos.infra.Faults;
import io.quanta.chaos.infra.NodeSpec;
import io.quanta.chaos.observe.Execution;
import io.quanta.chaos.observe.Invariants;
import io.quanta.chaos.observe.Stats;
import io.quanta.embedded.Await;
import io.quanta.schemas.DecisionType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Partition: a node connector whose broker traffic goes through the proxy runs long jobs; the proxy cuts it off
 * (connections dropped, new ones refused) for longer than the scheduler's node timeout while a second node is
 * healthy, then heals. The connector must fence itself ({@code node.fence.timeout.ms}, below the node timeout): kill
 * its attempts and report them LOST, delivered after the heal; the scheduler declares the node lost and starts the
 * jobs on the healthy node. From the topics: each old attempt's end (its connector's clock) is before the new
 * attempt's STARTED (the other connector's clock, same machine): zero overlapping attempts of one job.
 */
public final class PartitionScenario implements Scenario {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionScenario.class);
    private static final Duration RUNNING = Duration.ofMinutes(3);
    private static final String CUT = "part-cut";
    private static final String HEALTHY = "part-ok";

    /**
     * @param heartbeat   the connectors' heartbeat interval
     * @param fence       the connectors' fence timeout (below {@code nodeTimeout})
     * @param nodeTimeout the scheduler's node timeout
     * @param jobs        jobs running on the node that is cut off
     * @param gpusPerJob  their GPUs (the node has {@code jobs * gpusPerJob})
     * @param speed       time compression of the simulated jobs
     * @param jobSeconds  their simulated length (long enough to outlast the partition)
     * @param extraHold   how much longer than the node timeout the partition lasts at least
     * @param timeout     how long each step may take
     */
    public record Config(Duration heartbeat, Duration fence, Duration nodeTimeout, int jobs, int gpusPerJob,
                         double speed, long jobSeconds, Duration extraHold, Duration timeout) {

        public Config {
            if (fence.compareTo(nodeTimeout) >= 0) {
                throw new IllegalArgumentException("the fence timeout " + fence + " must be below the node timeout "
                        + nodeTimeout);
            }
        }

        /** The CI version: heartbeat 500 ms, fence 4 s, node timeout 8 s, two jobs. */
        public static final Config SHORT = new Config(Duration.ofMillis(500), Duration.ofSeconds(4),
                Duration.ofSeconds(8), 2, 2, 60, 7_200, Duration.ofSeconds(2), Duration.ofMinutes(2));
        /** The full run: the default timeouts (fence 20 s, node timeout 30 s), four jobs. */
        public static final Config FULL = new Config(Duration.ofSeconds(5), Duration.ofSeconds(20),
                Duration.ofSeconds(30), 4, 2, 60, 36_000, Duration.ofSeconds(10), Duration.ofMinutes(4));
    }

    private final Config config;

    public PartitionScenario(Config config) {
        this.config = config;
    }

    @Override
    public String name() {
        return "partition";
    }

    @Override
    public ScenarioResult run(ChaosStack stack) {
        Report report = new Report(name());
        Map<String, String> settings = ScenarioRun.fifoWithTimeouts(config.nodeTimeout(), config.heartbeat());
        boolean fenceSetting = ChaosCluster.nodeSettingExists("node.fence.timeout.ms");
        if (fenceSetting) {
            settings.put("node.fence.timeout.ms", Long.toString(config.fence().toMillis()));
        }
        report.info("connector fence timeout / scheduler node timeout", (fenceSetting
                ? Stats.seconds(config.fence().toMillis()) : "(no node.fence.timeout.ms)") + " / "
                + Stats.seconds(config.nodeTimeout().toMillis()));
        return ScenarioRun.onCluster(stack, name(), settings, report, this::run, stack.proxy()::heal);
    }

    private void run(ChaosCluster cluster, Report report) {
        cluster.startScheduler();
        cluster.awaitSchedulerRunning(RUNNING);
        cluster.startNode(new NodeSpec(CUT, config.jobs() * config.gpusPerJob(), config.speed(), true));
        cluster.awaitHeartbeat(CUT, -1, RUNNING);
        List<String> jobs = new ArrayList<>();
        for (int i = 0; i < config.jobs(); i++) {
            String id = "part-" + i;
            jobs.add(id);
            cluster.submit(Jobs.job(id, "vc0", config.gpusPerJob(), config.jobSeconds()));
        }
        ChaosCluster.awaitWhileAlive(cluster.node(CUT), "every job STARTED on " + CUT, config.timeout(),
                () -> jobs.stream().allMatch(j -> started(cluster, j, CUT).isPresent()));
        cluster.startNode(NodeSpec.of(HEALTHY, config.jobs() * config.gpusPerJob(), config.speed()));
        cluster.awaitHeartbeat(HEALTHY, -1, RUNNING);

        Instant cut = Instant.now();
        cluster.stack().proxy().partition();
        LOG.info("partition: {} cut off", CUT);
        ChaosCluster.awaitWhileAlive(cluster.node(HEALTHY), "every job STARTED again on " + HEALTHY,
                config.nodeTimeout().plus(config.timeout()),
                () -> jobs.stream().allMatch(j -> started(cluster, j, HEALTHY).isPresent()));
        Duration held = Duration.between(cut, Instant.now());
        Duration least = config.nodeTimeout().plus(config.extraHold());
        if (held.compareTo(least) < 0) {
            Faults.hold(least.minus(held));
        }
        Instant healed = Instant.now();
        cluster.stack().proxy().heal();
        LOG.info("partition: {} healed after {} ms", CUT, Duration.between(cut, healed).toMillis());
        report.info("partition length", Stats.seconds(Duration.between(cut, healed).toMillis()));

        try {
            Await.until("an end event of every old attempt on " + CUT, config.timeout(), () -> jobs.stream()
                    .allMatch(j -> oldAttempt(cluster, j).filter(e -> !e.isOpen()).isPresent()));
        } catch (Await.ConditionTimeoutException e) {
            report.violation(e.getMessage());
        }
        boolean back = true;
        try {
            Await.until(CUT + " heartbeats again after the heal", config.timeout(), () -> cluster.tail().heartbeats()
                    .stream().anyMatch(h -> h.value().getNodeId().equals(CUT) && h.receivedAt() > healed.toEpochMilli()));
        } catch (Await.ConditionTimeoutException e) {
            back = false;
        }
        check(cluster, report, jobs, cut, back);
    }

    private void check(ChaosCluster cluster, Report report, List<String> jobs, Instant cut, boolean back) {
        List<Execution> executions = Invariants.executions(cluster.tail().events(), cluster.tail().commands(),
                Map.of());
        List<String> late = new ArrayList<>();
        List<Long> fenceReaction = new ArrayList<>();
        List<Long> gaps = new ArrayList<>();
        for (String job : jobs) {
            Optional<Execution> old = oldAttempt(cluster, job);
            Optional<Execution> next = executions.stream().filter(e -> e.jobId().equals(job)
                    && e.nodeId().equals(HEALTHY)).findFirst();
            if (old.isEmpty() || next.isEmpty()) {
                late.add(job + ": old " + old.orElse(null) + ", new " + next.orElse(null));
                continue;
            }
            if (!old.get().isOpen()) {
                fenceReaction.add(old.get().endAt() - cut.toEpochMilli());
            }
            long gap = next.get().startAt() - old.get().endAt();
            if (old.get().isOpen() || gap < 0) {
                late.add(job + ": old " + old.get() + " still ran when the new one started: " + next.get());
            } else {
                gaps.add(gap);
            }
        }
        long lostDecisions = cluster.tail().decisions().stream().filter(d -> d.value().getType()
                == DecisionType.REQUEUE && d.value().getReason().contains("node " + CUT + " lost")).count();
        report.info("jobs requeued because " + CUT + " was lost", lostDecisions);
        report.expect("old attempts not ended before the new one started", late.size(), 0, late);
        List<String> overlaps = Invariants.attemptOverlaps(executions);
        report.expect("overlapping attempts of one job", overlaps.size(), 0, overlaps);
        List<String> gpuOverlaps = Invariants.gpuOverlaps(executions);
        report.expect("GPUs double-assigned", gpuOverlaps.size(), 0, gpuOverlaps);
        report.info("old attempts' end types", executions.stream().filter(e -> e.nodeId().equals(CUT))
                .map(Execution::endType).toList());
        report.info("partition -> old attempt ended (fence) max", Stats.seconds(Stats.max(fenceReaction)));
        report.info("old attempt end -> new STARTED min", gaps.isEmpty() ? "n/a" : Stats.seconds(gaps.stream()
                .mapToLong(Long::longValue).min().orElseThrow()));
        report.expectThat(CUT + " heartbeats again after the heal", back ? "yes" : "no", back, "yes");
    }

    /** The first execution of {@code job} on the node that is cut off. */
    private static Optional<Execution> oldAttempt(ChaosCluster cluster, String job) {
        return Invariants.executions(cluster.tail().events(), List.of(), Map.of()).stream()
                .filter(e -> e.jobId().equals(job) && e.nodeId().equals(CUT)).findFirst();
    }

    private static Optional<Execution> started(ChaosCluster cluster, String job, String node) {
        return Invariants.executions(cluster.tail().events(), List.of(), Map.of()).stream()
                .filter(e -> e.jobId().equals(job) && e.nodeId().equals(node)).findFirst();
    }
}
