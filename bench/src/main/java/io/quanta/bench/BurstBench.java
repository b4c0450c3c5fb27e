package io.quanta.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.quanta.embedded.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Item 3 of issue 17: a burst of one-GPU submissions, all produced at once, onto one cell with a free GPU for each
 * (e.g. 10,000 onto 1,250 nodes x 8 GPUs, heartbeating): placements per second, time until the last START, and the
 * scheduler's CPU per placement and per scheduling pass. The nodes answer every START with STARTED, as connectors do.
 */
final class BurstBench {

    /** What to run. */
    record Params(int submissions, int nodes, int partitions, long heartbeatMs, int warmUp) {
    }

    private static final int GPUS_PER_NODE = 8;

    private BurstBench() {
    }

    static Table run(Bench bench, Params p) {
        String name = "burst-" + System.currentTimeMillis();
        try (BenchCluster cluster = BenchCluster.create(bench.infra(), bench.runDir(), name, p.partitions(), 1,
                bench.schedulerSettings())) {
            BenchCluster.Instance scheduler = cluster.addInstance();
            cluster.awaitRunning(Duration.ofMinutes(3));
            String cell = cluster.cells().getFirst();
            try (SimulatedNodes nodes = new SimulatedNodes(cluster.bootstrapServers(), cluster.topics(),
                    SimulatedNodes.layout(cluster.cells(), p.nodes()), GPUS_PER_NODE,
                    Duration.ofMillis(p.heartbeatMs()), id -> id.startsWith("warm-") ? 1_000 : 0);
                 Submitter submitter = new Submitter(cluster.bootstrapServers(), cluster.topics())) {
                nodes.start();
                cluster.awaitGpus(p.nodes() * GPUS_PER_NODE, Duration.ofMinutes(5));
                Submitter.steady(20, p.warmUp() / 20.0, i -> {
                    submitter.submit("warm-" + i, BenchCluster.tenant(0));
                    return null;
                });
                Await.until("warm-up jobs started and ended", Duration.ofMinutes(3), () -> nodes.starts() >= p.warmUp()
                        && cluster.summary(cell).map(s -> s.path("gpusFree").asInt() == p.nodes() * GPUS_PER_NODE)
                        .orElse(false));
                JsonNode before = cluster.summary(cell).orElseThrow();
                double cpu = ProcessCpu.seconds(scheduler.process().pid());
                long began = System.nanoTime();
                for (int i = 0; i < p.submissions(); i++) {
                    submitter.submit("job-" + i, BenchCluster.tenant(0));
                }
                submitter.flush();
                double sentSeconds = (System.nanoTime() - began) / 1e9;
                Await.until("all " + p.submissions() + " burst jobs started", Duration.ofMinutes(15),
                        () -> nodes.starts() >= p.warmUp() + p.submissions());
                cpu = ProcessCpu.seconds(scheduler.process().pid()) - cpu;
                JsonNode after = cluster.summary(cell).orElseThrow();
                List<Double> at = new ArrayList<>();
                nodes.startedAt().forEach((id, t) -> {
                    if (id.startsWith("job-")) {
                        at.add((t - began) / 1e9);
                    }
                });
                at.sort(null);
                return table(bench, p, sentSeconds, at, cpu, after.path("passes").asLong()
                        - before.path("passes").asLong(), after.path("decisions").asLong()
                        - before.path("decisions").asLong());
            }
        }
    }

    private static Table table(Bench bench, Params p, double sentSeconds, List<Double> at, double cpu, long passes,
                               long decisions) {
        double last = at.getLast();
        int lo = (int) (at.size() * 0.1);
        int hi = (int) (at.size() * 0.9) - 1;
        double middle = (hi - lo) / (at.get(hi) - at.get(lo));
        Table t = new Table("Burst: " + Table.num(p.submissions()) + " one-GPU submissions at once onto "
                + Table.num(p.nodes()) + " nodes x " + GPUS_PER_NODE + " GPUs", "figure", "value");
        t.row("submissions produced in", Table.fixed(sentSeconds, 2) + " s");
        t.row("first START after the first submission", Table.fixed(at.getFirst(), 2) + " s");
        t.row("last START after the first submission", Table.fixed(last, 2) + " s");
        t.row("placements/s, whole burst (submissions / time to the last START)", Table.num(p.submissions() / last));
        t.row("placements/s sustained (10th to 90th percentile START)", Table.num(middle));
        t.row("scheduler process CPU during the burst", Table.fixed(cpu, 1) + " s");
        t.row("scheduler process CPU per placement (everything: routing, pass, STARTED events, commits)",
                Table.fixed(cpu * 1000 / p.submissions(), 2) + " ms");
        t.row("scheduling passes / decisions during the burst", passes + " / " + decisions);
        t.row("scheduler process CPU per pass", Table.fixed(passes == 0 ? Double.NaN : cpu * 1000 / passes, 2)
                + " ms");
        t.row("load average at the end (1 / 5 / 15 min)", ProcessCpu.loadAverage());
        t.note(bench.machine());
        t.note(String.format("settings: policy %s, commit.interval.ms %d, %d partitions, heartbeat every %d ms, "
                + "%d warm-up jobs first", bench.policy(), bench.commitIntervalMs(), p.partitions(), p.heartbeatMs(),
                p.warmUp()));
        return t;
    }
}
