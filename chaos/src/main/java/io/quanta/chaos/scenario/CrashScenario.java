package io.quanta.chaos.scenario;

import io.quanta.chaos.infra.ChaosCluster;
import io.quanta.chaos.infra.ChaosStack;
import io.quanta.chaos.infra.Faults;
import io.quanta.chaos.infra.NodeSpec;
import io.quanta.chaos.infra.Offsets;
import io.quanta.chaos.observe.AuditReplay;
import io.quanta.chaos.observe.Execution;
import io.quanta.chaos.observe.Invariants;
import io.quanta.chaos.observe.Seen;
import io.quanta.chaos.observe.Stats;
import io.quanta.chaos.observe.TopicTail;
import io.quanta.cli.local.TimeCompression;
import io.quanta.embedded.Await;
import io.quanta.schemas.JobState;
import io.quanta.schemas.NodeCommandType;
import io.quanta.streams.SchedulerConfigSection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Crash: a few hundred short jobs on simulated nodes while the driver {@code kill -9}s the scheduler process at
 * random moments and starts it again, {@code kill -9}s one node connector once (restarted with the same id and work
 * directory) and stops and restarts the registry once. Then, from the topics: every job reached exactly one final
 * state, no GPU ran two attempts at once, no attempt ran twice, attained service never went down, two attempts of a
 * job never overlapped, {@code quanta audit replay} reproduces every decision; and for each kill the time without
 * scheduling: from the kill to the first START the new process wrote (a probe job submitted while the scheduler is
 * dead makes sure there is one to write).
 */
public final class CrashScenario implements Scenario {

    private static final Logger LOG = LoggerFactory.getLogger(CrashScenario.class);
    private static final Duration RUNNING = Duration.ofMinutes(3);

    /**
     * @param jobs            jobs submitted
     * @param submitSpan      over how long (uniformly at random moments)
     * @param schedulerKills  kill -9s of the scheduler
     * @param minGap          shortest time the restarted scheduler runs before the next fault
     * @param maxGap          longest
     * @param nodes           simulated nodes
     * @param gpusPerNode     their GPUs
     * @param speed           time compression of the simulated jobs
     * @param minJobSeconds   shortest simulated job (at full speed)
     * @param maxJobSeconds   longest
     * @param nodeOutage      how long the killed connector stays dead
     * @param registryOutage  how long the registry stays down
     * @param finishTimeout   how long the jobs may take to end after the last fault and submission
     * @param seed            of every random choice
     */
    public record Config(int jobs, Duration submitSpan, int schedulerKills, Duration minGap, Duration maxGap,
                         int nodes, int gpusPerNode, double speed, int minJobSeconds, int maxJobSeconds,
                         Duration nodeOutage, Duration registryOutage, Duration finishTimeout, long seed) {

        /** The CI version: 60 jobs over 70 s, 3 scheduler kills. */
        public static final Config SHORT = new Config(60, Duration.ofSeconds(70), 3, Duration.ofSeconds(3),
                Duration.ofSeconds(8), 4, 4, 100, 60, 600, Duration.ofSeconds(3), Duration.ofSeconds(5),
                Duration.ofMinutes(3), 13);
        /** The full run: 300 jobs, 20 scheduler kills. */
        public static final Config FULL = new Config(300, Duration.ofMinutes(8), 20, Duration.ofSeconds(3),
                Duration.ofSeconds(15), 4, 4, 100, 60, 900, Duration.ofSeconds(5), Duration.ofSeconds(10),
                Duration.ofMinutes(6), 2026);
    }

    /** One kill of the scheduler and what followed. */
    private record Kill(Instant at, Map<TopicPartition, Long> commandsFrom, Map<TopicPartition, Long> decisionsFrom,
                        Duration toRunning) {
    }

    private final Config config;

    public CrashScenario(Config config) {
        this.config = config;
    }

    @Override
    public String name() {
        return "crash";
    }

    @Override
    public ScenarioResult run(ChaosStack stack) {
        Report report = new Report(name());
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put(SchedulerConfigSection.POLICY, "tiresias-las");
        settings.putAll(new TimeCompression(config.speed()).schedulerOverrides(Map.of(), 10_000));
        // a restarted instance waits for the dead one's session to expire before it gets the tasks
        settings.put("session.timeout.ms", "6000");
        settings.put("heartbeat.interval.ms", "2000");
        ScheduledExecutorService submitter = Executors.newSingleThreadScheduledExecutor();
        return ScenarioRun.onCluster(stack, name(), settings, report, (cluster, r) -> run(cluster, submitter, r),
                submitter::shutdownNow);
    }

    private void run(ChaosCluster cluster, ScheduledExecutorService submitter, Report report) {
        SplittableRandom random = new SplittableRandom(config.seed());
        List<String> nodeIds = ScenarioRun.schedulerAndNodes(cluster, "crash-n", config.nodes(),
                config.gpusPerNode(), config.speed());

        Set<String> submitted = ConcurrentHashMap.newKeySet();
        List<Throwable> submitErrors = new java.util.concurrent.CopyOnWriteArrayList<>();
        scheduleSubmissions(cluster, submitter, random.split(), submitted, submitErrors);

        // the connector kill and the registry restart come in the first two thirds, while jobs still arrive
        int window = Math.max(1, 2 * config.schedulerKills() / 3);
        int nodeKillAfter = random.nextInt(window);
        int registryRestartAfter = window < 2 ? 0 : (nodeKillAfter + 1 + random.nextInt(window - 1)) % window;
        List<Kill> kills = new ArrayList<>();
        Map<String, List<Long>> nodeKills = new LinkedHashMap<>();
        Duration registryDown = Duration.ZERO;
        for (int k = 0; k < config.schedulerKills(); k++) {
            Faults.hold(Faults.between(random, config.minGap(), config.maxGap()));
            kills.add(killScheduler(cluster, k, submitted));
            if (k == nodeKillAfter) {
                Faults.hold(Faults.between(random, config.minGap(), config.maxGap()));
                String victim = busyNode(cluster, nodeIds, random);
                nodeKills.put(victim, List.of(killNode(cluster, victim)));
            }
            if (k == registryRestartAfter) {
                Faults.hold(Faults.between(random, config.minGap(), config.maxGap()));
                registryDown = restartRegistry(cluster);
            }
        }
        Await.until("every submission sent", config.submitSpan().plus(Duration.ofMinutes(2)),
                () -> submitted.size() + submitErrors.size() >= config.jobs() + config.schedulerKills());
        LOG.info("crash: faults done; waiting for {} jobs to end", submitted.size());
        try {
            Await.until("every job in a final state", config.finishTimeout(), () ->
                    Invariants.finalStateOf(cluster.tail().statuses()).keySet().containsAll(submitted));
        } catch (Await.ConditionTimeoutException e) {
            report.violation(e.getMessage());
        }
        submitErrors.forEach(e -> report.violation("submission failed: " + e));
        check(cluster, report, submitted, kills, nodeKills, registryDown);
    }

    private void scheduleSubmissions(ChaosCluster cluster, ScheduledExecutorService submitter,
                                     SplittableRandom random, Set<String> submitted, List<Throwable> errors) {
        for (int i = 0; i < config.jobs(); i++) {
            String id = String.format("crash-%04d", i);
            int gpus = 1 + random.nextInt(4);
            long seconds = config.minJobSeconds() + random.nextInt(config.maxJobSeconds() - config.minJobSeconds()
                    + 1);
            String tenant = "vc" + random.nextInt(3);
            long at = random.nextLong(config.submitSpan().toMillis() + 1);
            submitter.schedule(() -> {
                try {
                    cluster.submit(Jobs.job(id, tenant, gpus, seconds));
                    submitted.add(id);
                } catch (RuntimeException e) {
                    errors.add(e);
                }
            }, at, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Kills the scheduler, notes where its committed outputs end, submits a probe job while it is dead (so that the
     * new process always has something to start: its first START measures the time without scheduling), starts it
     * again and waits until it runs.
     */
    private Kill killScheduler(ChaosCluster cluster, int k, Set<String> submitted) {
        Instant at = cluster.killScheduler();
        TopicTail tail = cluster.tail();
        Map<TopicPartition, Long> commands = Offsets.lastStable(cluster.kafkaProperties(),
                List.of(tail.topics().commands().name()));
        Map<TopicPartition, Long> decisions = Offsets.lastStable(cluster.kafkaProperties(),
                List.of(tail.topics().decisions().name()));
        String probe = String.format("crash-probe-%02d", k);
        cluster.submit(Jobs.job(probe, "vc0", 1, config.minJobSeconds()));
        submitted.add(probe);
        cluster.startScheduler();
        cluster.awaitSchedulerRunning(RUNNING);
        return new Kill(at, commands, decisions, Duration.between(at, Instant.now()));
    }

    /** A node running an attempt now (waits for one), so that the kill cuts attempts short. */
    private static String busyNode(ChaosCluster cluster, List<String> nodeIds, SplittableRandom random) {
        List<String> busy = new ArrayList<>();
        Await.until("a node running an attempt", RUNNING, () -> {
            List<Execution> open = Invariants.executions(cluster.tail().events(), List.of(), Map.of()).stream()
                    .filter(Execution::isOpen).toList();
            busy.clear();
            nodeIds.stream().filter(n -> open.stream().anyMatch(e -> e.nodeId().equals(n))).forEach(busy::add);
            return !busy.isEmpty();
        });
        return busy.get(random.nextInt(busy.size()));
    }

    private long killNode(ChaosCluster cluster, String nodeId) {
        long epoch = cluster.latestEpoch(nodeId);
        Instant at = cluster.killNode(nodeId);
        Faults.hold(config.nodeOutage());
        cluster.startNode(NodeSpec.of(nodeId, config.gpusPerNode(), config.speed()));
        cluster.awaitHeartbeat(nodeId, epoch, RUNNING);
        LOG.info("crash: node {} back after kill -9 at {}", nodeId, at);
        return at.toEpochMilli();
    }

    private Duration restartRegistry(ChaosCluster cluster) {
        Instant down = cluster.stack().stopRegistry();
        Faults.hold(config.registryOutage());
        Instant up = cluster.stack().startRegistry();
        LOG.info("crash: registry restarted, down {} ms", Duration.between(down, up).toMillis());
        return Duration.between(down, up);
    }

    private void check(ChaosCluster cluster, Report report, Set<String> submitted, List<Kill> kills,
                       Map<String, List<Long>> nodeKills, Duration registryDown) {
        TopicTail tail = cluster.tail();
        var statuses = tail.statuses();
        var events = tail.events();
        var commands = tail.commands();
        List<Execution> executions = Invariants.executions(events, commands, nodeKills);
        long[] duplicates = new long[1];
        List<String> doubleStarts = Invariants.doubleStarts(events, commands, duplicates);
        Map<String, JobState> finals = Invariants.finalStateOf(statuses);
        List<String> finalProblems = Invariants.finalStates(new LinkedHashSet<>(submitted), statuses);
        List<String> lost = finalProblems.stream().filter(p -> p.contains("no final state")).toList();
        List<String> several = finalProblems.stream().filter(p -> !p.contains("no final state")).toList();
        long finished = submitted.stream().filter(j -> finals.get(j) == JobState.FINISHED).count();

        report.info("jobs submitted (one probe per kill included)", submitted.size());
        report.expect("scheduler kill -9s survived", kills.size(), config.schedulerKills());
        report.info("connector kill -9s", nodeKills.size());
        report.info("registry restarts (down for)", registryDown.isZero() ? "0" : "1 (" + Stats.seconds(
                registryDown.toMillis()) + ")");
        report.expect("jobs lost (no final state)", lost.size(), 0, lost);
        report.expect("jobs with more than one final state", several.size(), 0, several);
        report.expect("jobs FINISHED", finished, submitted.size(), submitted.stream()
                .filter(j -> finals.get(j) != JobState.FINISHED).map(j -> j + " " + finals.get(j)).toList());
        List<String> gpuOverlaps = Invariants.gpuOverlaps(executions);
        report.expect("GPUs double-assigned (overlapping attempts)", gpuOverlaps.size(), 0, gpuOverlaps);
        report.expect("attempts executed twice", doubleStarts.size(), 0, doubleStarts);
        report.info("identical STARTED redeliveries", duplicates[0]);
        List<String> peers = Invariants.gangPeerOverlaps(executions);
        List<String> overlaps = Invariants.attemptOverlaps(executions).stream().filter(o -> !peers.contains(o))
                .toList();
        report.expect("overlapping attempts of one job (other than below)", overlaps.size(), 0, overlaps);
        report.expect("jobs restarted while a gang member still ran the previous attempt", peers.size(), 0, peers);
        List<String> decreases = Invariants.attainedDecreases(statuses);
        report.expect("attained-service decreases", decreases.size(), 0, decreases);
        report.info("attempts executed", executions.size());
        report.info("attempt ends by type", new java.util.TreeMap<>(executions.stream().collect(
                java.util.stream.Collectors.groupingBy(Execution::endType, java.util.stream.Collectors.counting()))));
        report.info("decisions by type", new java.util.TreeMap<>(tail.decisions().stream().collect(
                java.util.stream.Collectors.groupingBy(d -> d.value().getType().name(),
                        java.util.stream.Collectors.counting()))));
        report.info("stream-thread replacements", cluster.threadReplacements());
        report.info("dead letters (by reason)", tail.deadLetters().size() + " " + new java.util.TreeMap<>(
                tail.deadLetters().stream().collect(java.util.stream.Collectors.groupingBy(
                        d -> FuzzScenario.reasonClass(d.value().getReason()),
                        java.util.stream.Collectors.counting()))));

        List<Long> toStart = new ArrayList<>();
        List<Long> toDecision = new ArrayList<>();
        for (Kill kill : kills) {
            firstAfter(tail.commands(), kill.commandsFrom(), tail.topics().commands().name(),
                    c -> c.getType() == NodeCommandType.START).ifPresent(t -> toStart.add(t - kill.at().toEpochMilli()));
            firstAfter(tail.decisions(), kill.decisionsFrom(), tail.topics().decisions().name(), d -> true)
                    .ifPresent(t -> toDecision.add(t - kill.at().toEpochMilli()));
        }
        List<Long> toRunning = kills.stream().map(k -> k.toRunning().toMillis()).toList();
        report.info("kill -> restarted scheduler RUNNING p50 / max", Stats.seconds(Stats.percentile(toRunning, 50))
                + " / " + Stats.seconds(Stats.max(toRunning)));
        report.info("kill -> next decision p50 / max", Stats.seconds(Stats.percentile(toDecision, 50)) + " / "
                + Stats.seconds(Stats.max(toDecision)));
        report.info("kill -> next START (time without scheduling) p50 / max", Stats.seconds(
                Stats.percentile(toStart, 50)) + " / " + Stats.seconds(Stats.max(toStart)));
        report.expect("kills followed by a START of the new process", toStart.size(), kills.size());

        AuditReplay audit = AuditReplay.run(cluster.propertiesFile(), ChaosCluster.CELL);
        report.info("audit replay: decisions reproduced", audit.reproduced());
        report.expectThat("audit replay: decisions diverged", audit.diverged(), audit.allReproduced(),
                "0 (exit 0)");
        if (!audit.allReproduced()) {
            report.violation("audit replay said:\n" + audit.output());
        }
    }

    /** Receive time of the first record matching {@code filter} at or after the given offsets, if any. */
    private static <V> java.util.Optional<Long> firstAfter(List<Seen<V>> seen, Map<TopicPartition, Long> from,
                                                           String topic, Predicate<V> filter) {
        return seen.stream()
                .filter(s -> s.offset() >= from.getOrDefault(new TopicPartition(topic, s.partition()), 0L))
                .filter(s -> filter.test(s.value())).map(Seen::receivedAt).min(Long::compare);
    }
}
