package io.quanta.bench;

import io.quanta.chaos.observe.Stats;
import io.quanta.embedded.Await;
import io.quanta.streams.SchedulerConfigSection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;

/**
 * Item 5 of issue 17, failover: two scheduler processes with standby replicas serve one cell while a probe job is
 * submitted every {@code probeMs}; the instance that owns the cell (its inbox partition, from the consumer group's
 * assignment) is killed with {@code kill -9}; the time from the kill to the first START of a job submitted after it
 * is how long the cell was without a scheduler. The killed instance is started again (same state directory), the
 * deployment left to settle, and the next kill goes to whichever instance owns the cell then.
 */
final class FailoverBench {

    /** What to run. */
    record Params(int kills, int standbys, long sessionTimeoutMs, long transactionTimeoutMs, long probeMs,
                  long settleMs, int nodes, int partitions) {
    }

    private static final int GPUS_PER_NODE = 8;

    private FailoverBench() {
    }

    static Table run(Bench bench, Params p) {
        Map<String, String> settings = bench.schedulerSettings();
        settings.put(SchedulerConfigSection.STANDBY_REPLICAS, Integer.toString(p.standbys()));
        if (p.sessionTimeoutMs() > 0) {
            settings.put("session.timeout.ms", Long.toString(p.sessionTimeoutMs()));
            settings.put("heartbeat.interval.ms", Long.toString(Math.max(500, p.sessionTimeoutMs() / 3)));
        }
        if (p.transactionTimeoutMs() > 0) {
            settings.put("transaction.timeout.ms", Long.toString(p.transactionTimeoutMs()));
        }
        String name = "failover-" + System.currentTimeMillis();
        Table t = new Table("Failover: kill -9 of the scheduler instance that owns the cell, 2 instances, "
                + "scheduler.standby.replicas=" + p.standbys(), "kill", "owner killed", "kill to the next START",
                "load average (1 / 5 / 15 min)");
        List<Double> gaps = new ArrayList<>();
        try (BenchCluster cluster = BenchCluster.create(bench.infra(), bench.runDir(), name, p.partitions(), 1,
                settings);
             Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", cluster.bootstrapServers()))) {
            cluster.addInstance();
            cluster.addInstance();
            cluster.awaitRunning(Duration.ofMinutes(4));
            String cell = cluster.cells().getFirst();
            try (SimulatedNodes nodes = new SimulatedNodes(cluster.bootstrapServers(), cluster.topics(),
                    SimulatedNodes.layout(cluster.cells(), p.nodes()), GPUS_PER_NODE, Duration.ofSeconds(5),
                    id -> 1_000);
                 Submitter submitter = new Submitter(cluster.bootstrapServers(), cluster.topics())) {
                nodes.start();
                cluster.awaitGpus(p.nodes() * GPUS_PER_NODE, Duration.ofMinutes(3));
                Thread probes = probes(submitter, p.probeMs());
                probes.start();
                try {
                    settle(cluster, p);
                    for (int k = 1; k <= p.kills(); k++) {
                        Await.until("an instance owns " + cell, Duration.ofMinutes(2),
                                () -> owner(admin, cluster, cell, p.partitions()).isPresent());
                        BenchCluster.Instance owner = owner(admin, cluster, cell, p.partitions()).orElseThrow();
                        long killedAt = System.nanoTime();
                        owner.process().kill9();
                        Await.until("a START after kill " + ((Object) k), Duration.ofMinutes(3),
                                () -> firstStartAfter(submitter, nodes, killedAt).isPresent());
                        double gap = (firstStartAfter(submitter, nodes, killedAt).orElseThrow() - killedAt) / 1e9;
                        gaps.add(gap * 1000);
                        t.row(k, owner.id(), Table.fixed(gap, 2) + " s", ProcessCpu.loadAverage());
                        System.err.printf("kill %d of %s: next START after %.2f s%n", k, owner.id(), gap);
                        cluster.start(owner);
                        settle(cluster, p);
                    }
                } finally {
                    probes.interrupt();
                }
            }
        }
        t.row("p50 / max", "", Table.fixed(Stats.percentile(gaps, 50) / 1000, 2) + " s / "
                + Table.fixed(Stats.max(gaps) / 1000, 2) + " s", "");
        t.note(bench.machine());
        t.note(String.format("settings: policy %s, commit.interval.ms %d, session.timeout.ms %s, "
                + "transaction.timeout.ms %s, a probe job every %d ms, %d nodes x %d GPUs, %d s to settle after each "
                + "restart", bench.policy(), bench.commitIntervalMs(), orDefault(p.sessionTimeoutMs()),
                orDefault(p.transactionTimeoutMs()), p.probeMs(), p.nodes(), GPUS_PER_NODE, p.settleMs() / 1000));
        return t;
    }

    private static String orDefault(long ms) {
        return ms > 0 ? Long.toString(ms) : "the scheduler's default";
    }

    private static void settle(BenchCluster cluster, Params p) {
        cluster.awaitRunning(Duration.ofMinutes(4));
        // time for the restarted instance to rejoin and its standby to catch up, as between two real failures
        Submitter.sleep(p.settleMs());
        cluster.awaitRunning(Duration.ofMinutes(4));
    }

    /** Submits a one-GPU probe job ({@code job-N}) every {@code probeMs} until interrupted. */
    private static Thread probes(Submitter submitter, long probeMs) {
        Thread t = new Thread(() -> {
            for (int n = 0; !Thread.currentThread().isInterrupted(); n++) {
                submitter.submit("job-" + n, BenchCluster.tenant(0));
                java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(probeMs));
            }
        }, "failover-probes");
        t.setDaemon(true);
        return t;
    }

    /** When the first START of a job submitted after {@code killedAt} was read. */
    private static Optional<Long> firstStartAfter(Submitter submitter, SimulatedNodes nodes, long killedAt) {
        return nodes.startedAt().entrySet().stream().filter(e -> {
            Long sent = submitter.sentAt().get(e.getKey());
            return sent != null && sent - killedAt > 0;
        }).map(Map.Entry::getValue).min(Long::compare);
    }

    /** The instance whose consumer holds the cell's inbox partition. */
    private static Optional<BenchCluster.Instance> owner(Admin admin, BenchCluster cluster, String cell,
                                                         int partitions) {
        String inbox = cluster.topics().inbox().name();
        TopicPartition tp = new TopicPartition(inbox, Utils.toPositive(Utils.murmur2(
                cell.getBytes(StandardCharsets.UTF_8))) % partitions);
        try {
            var group = admin.describeConsumerGroups(List.of(cluster.applicationId())).all().get()
                    .get(cluster.applicationId());
            for (MemberDescription m : group.members()) {
                if (m.assignment().topicPartitions().contains(tp)) {
                    return cluster.instances().stream().filter(i -> m.clientId().startsWith(cluster.name() + "-"
                            + i.id() + "-")).findFirst();
                }
            }
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }
}
