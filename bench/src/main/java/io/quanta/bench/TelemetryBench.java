package io.quanta.bench;

import io.quanta.embedded.Await;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;

/**
 * Item 4 of issue 17: how many telemetry records per second the scheduler keeps up with, the broker in its own
 * process: {@code jobs} one-GPU jobs run, then {@code records} telemetry records for them (a constant throughput, so
 * all but the first of each attempt change nothing) are produced as fast as the producer goes; the rate is records
 * over the time from the first produce until the scheduler's committed offsets reach the end of the telemetry and
 * inbox topics. The floor carries the same number of records through its two hops the same way (its second hop
 * drops them, as the cell writes nothing for them).
 */
final class TelemetryBench {

    /** What to run. */
    record Params(long records, int jobs, int partitions) {
    }

    private static final int GPUS_PER_NODE = 8;

    private TelemetryBench() {
    }

    static Table run(Bench bench, Params p) {
        Result floor = floor(bench, p);
        Result quanta = quanta(bench, p);
        Table t = new Table("Telemetry: " + Table.num(p.records()) + " records produced at once", "figure",
                "floor (two exactly-once hops)", "Quanta", "Quanta / floor");
        t.row("records/s (first produce to all committed)", Table.num(floor.rate), Table.num(quanta.rate),
                Table.fixed(quanta.rate / floor.rate, 2));
        t.row("CPU of the process under test per record", Table.fixed(floor.cpu * 1e6 / p.records(), 1) + " us",
                Table.fixed(quanta.cpu * 1e6 / p.records(), 1) + " us", Table.fixed(quanta.cpu / floor.cpu, 2));
        t.row("records per CPU-second of the process under test", Table.num(p.records() / floor.cpu),
                Table.num(p.records() / quanta.cpu), "");
        t.row("load average at the end (1 / 5 / 15 min)", floor.load, quanta.load, "");
        t.note(bench.machine());
        t.note(String.format("settings: policy %s, commit.interval.ms %d, %d partitions, %d running jobs on %d nodes",
                bench.policy(), bench.commitIntervalMs(), p.partitions(), p.jobs(), nodes(p)));
        return t;
    }

    private record Result(double rate, double cpu, String load) {
    }

    private static int nodes(Params p) {
        return (p.jobs() + GPUS_PER_NODE - 1) / GPUS_PER_NODE;
    }

    private static Result floor(Bench bench, Params p) {
        String name = "tel-floor-" + System.currentTimeMillis();
        try (Floor floor = new Floor(bench.infra().bootstrapServers(), bench.runDir(), name, p.partitions(),
                bench.commitIntervalMs(), bench.pollMs());
             Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers",
                     bench.infra().bootstrapServers()))) {
            floor.send("job-warm");
            Await.until("floor warm", Duration.ofMinutes(2), () -> floor.arrivedAt().containsKey("job-warm"));
            double cpu = ProcessCpu.seconds(floor.pid());
            long began = System.nanoTime();
            for (long i = 0; i < p.records(); i++) {
                floor.sendBackground("bg-t-" + i);
            }
            floor.flush();
            await(admin, floor.applicationId(), floor.consumedTopics());
            double seconds = (System.nanoTime() - began) / 1e9;
            return new Result(p.records() / seconds, ProcessCpu.seconds(floor.pid()) - cpu, ProcessCpu.loadAverage());
        }
    }

    private static Result quanta(Bench bench, Params p) {
        String name = "tel-" + System.currentTimeMillis();
        try (BenchCluster cluster = BenchCluster.create(bench.infra(), bench.runDir(), name, p.partitions(), 1,
                bench.schedulerSettings());
             Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", cluster.bootstrapServers()))) {
            BenchCluster.Instance scheduler = cluster.addInstance();
            cluster.awaitRunning(Duration.ofMinutes(3));
            try (SimulatedNodes nodes = new SimulatedNodes(cluster.bootstrapServers(), cluster.topics(),
                    SimulatedNodes.layout(cluster.cells(), nodes(p)), GPUS_PER_NODE, Duration.ofSeconds(5), id -> 0);
                 Submitter submitter = new Submitter(cluster.bootstrapServers(), cluster.topics())) {
                nodes.start();
                cluster.awaitGpus(nodes(p) * GPUS_PER_NODE, Duration.ofMinutes(3));
                for (int i = 0; i < p.jobs(); i++) {
                    submitter.submit("job-" + i, BenchCluster.tenant(0));
                }
                submitter.flush();
                Await.until(p.jobs() + " jobs started", Duration.ofMinutes(5), () -> nodes.starts() >= p.jobs());
                List<String> consumed = List.of(cluster.topics().telemetry().name(), cluster.topics().inbox().name());
                await(admin, cluster.applicationId(), consumed);
                double cpu = ProcessCpu.seconds(scheduler.process().pid());
                long began = System.nanoTime();
                nodes.telemetryBlast(p.records());
                await(admin, cluster.applicationId(), consumed);
                double seconds = (System.nanoTime() - began) / 1e9;
                return new Result(p.records() / seconds, ProcessCpu.seconds(scheduler.process().pid()) - cpu,
                        ProcessCpu.loadAverage());
            }
        }
    }

    private static void await(Admin admin, String group, List<String> topics) {
        Await.until(group + " committed everything of " + topics, Duration.ofMinutes(10),
                () -> Lag.caughtUp(admin, group, topics));
    }
}
