package io.quanta.bench;

import io.quanta.chaos.observe.Stats;
import io.quanta.embedded.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Item 1 and 2 of issue 17: submission to START under a steady rate, with heartbeats, job events and telemetry
 * flowing, next to the floor ({@link FloorTopology}) carrying the same record rate through two exactly-once hops on
 * the same broker, commit interval and partitions. Both run in this invocation, one after the other.
 */
final class LatencyBench {

    /** What to run. */
    record Params(double rate, double seconds, int rounds, double warmUpSeconds, int nodes, int partitions,
                  long heartbeatMs, double telemetryPerSecond, long jobMs, boolean traceHops) {

        /** Records per second besides the measured submissions: heartbeats, STARTED and COMPLETED, telemetry. */
        double backgroundPerSecond() {
            return nodes * 1000.0 / heartbeatMs + 2 * rate + telemetryPerSecond;
        }
    }

    private static final int GPUS_PER_NODE = 8;

    private LatencyBench() {
    }

    static List<Table> run(Bench bench, Params p) {
        String name = "lat-" + System.currentTimeMillis();
        Result floor = new Result();
        Result quanta = new Result();
        List<Table> tables = new ArrayList<>();
        try (Floor floorApp = new Floor(bench.infra().bootstrapServers(), bench.runDir(), name, p.partitions(),
                bench.commitIntervalMs(), bench.pollMs());
             BenchCluster cluster = BenchCluster.create(bench.infra(), bench.runDir(), name, p.partitions(), 1,
                     bench.schedulerSettings())) {
            BenchCluster.Instance scheduler = cluster.addInstance();
            cluster.awaitRunning(Duration.ofMinutes(3));
            try (SimulatedNodes nodes = new SimulatedNodes(cluster.bootstrapServers(), cluster.topics(),
                    SimulatedNodes.layout(cluster.cells(), p.nodes()), GPUS_PER_NODE,
                    Duration.ofMillis(p.heartbeatMs()), id -> p.jobMs());
                 Submitter submitter = new Submitter(cluster.bootstrapServers(), cluster.topics());
                 HopTracer tracer = p.traceHops() ? new HopTracer(cluster.bootstrapServers(), cluster.topics(), "job-")
                         : null) {
                nodes.start();
                cluster.awaitGpus(p.nodes() * GPUS_PER_NODE, Duration.ofMinutes(3));
                Side floorSide = new Side(floorApp.pid(), floorApp::send, floorApp.sentAt(), floorApp.arrivedAt(),
                        on -> floorApp.background(on ? p.backgroundPerSecond() : 0));
                Side quantaSide = new Side(scheduler.process().pid(), id -> submitter.submit(id,
                        BenchCluster.tenant(0)), submitter.sentAt(), nodes.startedAt(),
                        on -> nodes.telemetryRate(on ? p.telemetryPerSecond() : 0));
                window(floorSide, p, "warm-f", p.warmUpSeconds(), null);
                window(quantaSide, p, "warm-q", p.warmUpSeconds(), null);
                for (int round = 0; round < p.rounds(); round++) {
                    window(floorSide, p, "job-" + round + "-", p.seconds(), floor);
                    window(quantaSide, p, "job-" + round + "-", p.seconds(), quanta);
                }
                if (tracer != null) {
                    Await.until("every traced START committed", Duration.ofSeconds(30),
                            () -> quanta.ids.stream().allMatch(tracer::sawStart));
                    tables.add(tracer.table(quanta.ids, submitter.sentWallMs(), submitter.appendedMs()));
                }
            }
        }
        tables.add(0, table(bench, p, floor, quanta));
        return tables;
    }

    private static Table table(Bench bench, Params p, Result floor, Result quanta) {
        Table t = new Table("Submission to START: the floor and Quanta, " + Table.num(p.rate()) + " submissions/s, "
                + p.rounds() + " alternating windows of " + Table.num(p.seconds()) + " s each", "figure",
                "floor (two exactly-once hops)", "Quanta", "Quanta / floor");
        t.row("submissions measured", floor.latencies.size(), quanta.latencies.size(), "");
        for (int pct : new int[] {50, 90, 99}) {
            double f = Stats.percentile(floor.latencies, pct);
            double q = Stats.percentile(quanta.latencies, pct);
            t.row("p" + pct, Table.ms(f), Table.ms(q), Table.fixed(q / f, 2));
        }
        double fMax = Stats.max(floor.latencies);
        double qMax = Stats.max(quanta.latencies);
        t.row("max", Table.ms(fMax), Table.ms(qMax), Table.fixed(qMax / fMax, 2));
        t.row("background records/s (heartbeats, events, telemetry; filler for the floor)",
                Table.num(p.backgroundPerSecond()), Table.num(p.backgroundPerSecond()), "");
        double seconds = p.seconds() * p.rounds();
        t.row("CPU of the process under test (cores, over its windows)", Table.fixed(floor.cpu / seconds, 2),
                Table.fixed(quanta.cpu / seconds, 2), Table.fixed(quanta.cpu / floor.cpu, 2));
        t.row("load average after each window (1 min)", String.join(", ", floor.loads),
                String.join(", ", quanta.loads), "");
        t.note(bench.machine());
        t.note(String.format("settings: policy %s, commit.interval.ms %d, poll.ms %d, %d partitions, %d nodes x %d "
                + "GPUs (heartbeat every %d ms), telemetry %s records/s, jobs run %d ms; warm-up %s s each; the floor "
                + "and Quanta both stay up and take turns (Quanta's heartbeats go on during the floor's windows)",
                bench.policy(), bench.commitIntervalMs(), bench.pollMs(), p.partitions(), p.nodes(), GPUS_PER_NODE,
                p.heartbeatMs(), Table.num(p.telemetryPerSecond()), p.jobMs(), Table.num(p.warmUpSeconds())));
        return t;
    }

    /** Latencies, CPU and load of one side, accumulated over its windows. */
    private static final class Result {
        final List<Long> latencies = new ArrayList<>();
        final List<String> ids = new ArrayList<>();
        final List<String> loads = new ArrayList<>();
        double cpu;
    }

    /** One side under test: its process, how to send a measured record, where sends and arrivals are noted. */
    private record Side(long pid, java.util.function.Consumer<String> send, Map<String, Long> sentAt,
                        Map<String, Long> arrivedAt, java.util.function.Consumer<Boolean> background) {
    }

    /**
     * One measured window of a side: its background on, {@code seconds} of records at the rate, wait for every one
     * to arrive, background off; the latencies go into {@code into} (null: warm-up).
     */
    private static void window(Side side, Params p, String prefix, double seconds, Result into) {
        side.background().accept(true);
        double cpu = ProcessCpu.seconds(side.pid());
        List<String> ids = new ArrayList<>();
        int count = Submitter.steady(p.rate(), seconds, i -> {
            String id = prefix + i;
            ids.add(id);
            side.send().accept(id);
            return null;
        });
        Await.until(count + " records " + prefix + "* delivered", Duration.ofMinutes(5),
                () -> ids.stream().allMatch(side.arrivedAt()::containsKey));
        side.background().accept(false);
        if (into != null) {
            into.cpu += ProcessCpu.seconds(side.pid()) - cpu;
            ids.forEach(id -> into.latencies.add((side.arrivedAt().get(id) - side.sentAt().get(id)) / 1_000_000));
            into.ids.addAll(ids);
            into.loads.add(ProcessCpu.loadAverage().split(" ")[0]);
        }
    }
}
