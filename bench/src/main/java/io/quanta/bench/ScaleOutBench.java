package io.quanta.bench;

import io.quanta.embedded.Await;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;

/**
 * Item 5 of issue 17, scale-out: for each instance count, a fresh deployment of {@code cells} cells (each with its own
 * inbox partition and simulated nodes) served by that many scheduler processes; a burst of one-GPU submissions spread
 * over the cells; placements per second and inbox records (every cell input: submissions, STARTED events,
 * heartbeats, telemetry) per second until the last START.
 */
final class ScaleOutBench {

    /** What to run. */
    record Params(List<Integer> instances, int cells, int nodesPerCell, int submissions, int warmUp, int partitions,
                  long heartbeatMs, double telemetryPerSecond) {
    }

    private static final int GPUS_PER_NODE = 8;

    private ScaleOutBench() {
    }

    static Table run(Bench bench, Params p) {
        Table t = new Table("Scale-out: " + Table.num(p.submissions()) + " submissions at once over " + p.cells()
                + " cells of " + p.nodesPerCell() + " nodes x " + GPUS_PER_NODE + " GPUs", "scheduler instances",
                "time to the last START", "placements/s", "inbox records/s", "scheduler CPU (all instances)",
                "CPU per placement", "load average (1 / 5 / 15 min)");
        double first = Double.NaN;
        for (int count : p.instances()) {
            Row r = once(bench, p, count);
            if (Double.isNaN(first)) {
                first = r.placementsPerSecond;
            }
            t.row(count, Table.fixed(r.seconds, 2) + " s", Table.num(r.placementsPerSecond) + " (x"
                    + Table.fixed(r.placementsPerSecond / first, 2) + ")", Table.num(r.inboxPerSecond),
                    Table.fixed(r.cpu, 1) + " s", Table.fixed(r.cpu * 1000 / p.submissions(), 2) + " ms", r.load);
        }
        t.note(bench.machine());
        t.note(String.format("settings: policy %s, commit.interval.ms %d, %d partitions per topic, heartbeat every %d "
                + "ms, telemetry %s records/s, a warm-up burst of %d short jobs first; every instance a separate "
                + "JVM; broker and registry another", bench.policy(), bench.commitIntervalMs(), p.partitions(),
                p.heartbeatMs(), Table.num(p.telemetryPerSecond()), p.warmUp()));
        return t;
    }

    private record Row(double seconds, double placementsPerSecond, double inboxPerSecond, double cpu, String load) {
    }

    private static Row once(Bench bench, Params p, int instances) {
        String name = "scale" + instances + "-" + System.currentTimeMillis();
        try (BenchCluster cluster = BenchCluster.create(bench.infra(), bench.runDir(), name, p.partitions(),
                p.cells(), bench.schedulerSettings());
             Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", cluster.bootstrapServers()))) {
            for (int i = 0; i < instances; i++) {
                cluster.addInstance();
            }
            cluster.awaitRunning(Duration.ofMinutes(4));
            try (SimulatedNodes nodes = new SimulatedNodes(cluster.bootstrapServers(), cluster.topics(),
                    SimulatedNodes.layout(cluster.cells(), p.nodesPerCell()), GPUS_PER_NODE,
                    Duration.ofMillis(p.heartbeatMs()), id -> id.startsWith("warm-") ? 500 : 0);
                 Submitter submitter = new Submitter(cluster.bootstrapServers(), cluster.topics())) {
                nodes.start();
                cluster.awaitGpus(p.nodesPerCell() * GPUS_PER_NODE, Duration.ofMinutes(4));
                // a warm-up burst of short jobs, spread like the measured one, so that every instance's JIT has
                // compiled the path before the measured burst; then every GPU free again
                for (int i = 0; i < p.warmUp(); i++) {
                    submitter.submit("warm-" + i, BenchCluster.tenant(i % p.cells()));
                }
                Await.until("the warm-up jobs started and ended", Duration.ofMinutes(5),
                        () -> nodes.starts() >= p.warmUp() && cluster.cells().stream().allMatch(c -> cluster
                                .summary(c).map(s -> s.path("gpusFree").asInt() == p.nodesPerCell() * GPUS_PER_NODE)
                                .orElse(false)));
                cluster.awaitRunning(Duration.ofMinutes(2));
                nodes.telemetryRate(p.telemetryPerSecond());
                String inbox = cluster.topics().inbox().name();
                long inboxBefore = Lag.total(admin, List.of(inbox));
                double cpu = cpu(cluster);
                long began = System.nanoTime();
                for (int i = 0; i < p.submissions(); i++) {
                    submitter.submit("job-" + i, BenchCluster.tenant(i % p.cells()));
                }
                submitter.flush();
                Await.until("all " + p.submissions() + " jobs started", Duration.ofMinutes(10),
                        () -> nodes.starts() >= p.warmUp() + p.submissions());
                double seconds = nodes.startedAt().entrySet().stream().filter(e -> e.getKey().startsWith("job-"))
                        .mapToLong(Map.Entry::getValue).max().orElseThrow() / 1e9 - began / 1e9;
                long inboxRecords = Lag.total(admin, List.of(inbox)) - inboxBefore;
                return new Row(seconds, p.submissions() / seconds, inboxRecords / seconds, cpu(cluster) - cpu,
                        ProcessCpu.loadAverage());
            }
        }
    }

    private static double cpu(BenchCluster cluster) {
        return cluster.instances().stream().mapToDouble(i -> ProcessCpu.seconds(i.process().pid())).sum();
    }
}
