package io.quanta.bench;

import io.quanta.bench.SharedOptions.HeartbeatOption;
import io.quanta.bench.SharedOptions.NodesOption;
import io.quanta.bench.SharedOptions.PartitionsOption;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code bench/run}: benchmarks shaped like a deployment (issue 17). Each command starts the broker and registry in a
 * process of their own ({@code quanta local --only broker,registry}), the scheduler instances (and the floor) in
 * processes of their own, drives them from this process (load generator, command reader, simulated nodes) and prints
 * one complete Markdown table.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Deployment-shaped benchmarks of Quanta.",
        subcommands = {BenchMain.Latency.class, BenchMain.Burst.class, BenchMain.Telemetry.class,
                BenchMain.ScaleOut.class, BenchMain.Failover.class})
public final class BenchMain {

    @Option(names = "--dir", paramLabel = "DIR", defaultValue = "${java.io.tmpdir}/quanta-bench",
            description = "Run directory: logs and state of every process (default ${DEFAULT-VALUE}).")
    Path dir;

    @Option(names = "--policy", defaultValue = "tiresias-las", description = "Scheduling policy (${DEFAULT-VALUE}).")
    String policy;

    @Option(names = "--commit-interval-ms", defaultValue = "20",
            description = "commit.interval.ms of the scheduler and the floor (${DEFAULT-VALUE}, the scheduler's "
                    + "default).")
    long commitIntervalMs;

    @Option(names = "--poll-ms", defaultValue = "5",
            description = "poll.ms of the scheduler and the floor (${DEFAULT-VALUE}, the scheduler's default).")
    long pollMs;

    @Option(names = "--markdown", paramLabel = "FILE", description = "Also append the tables to FILE.")
    Path markdown;

    public static void main(String[] args) {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        int code = new CommandLine(new BenchMain()).execute(args);
        System.exit(code);
    }

    /** Starts the infrastructure, runs {@code body}, prints its tables, stops everything. */
    int run(java.util.function.Function<Bench, List<Table>> body) throws IOException {
        Path runDir = dir.resolve(Long.toString(System.currentTimeMillis()));
        Files.createDirectories(runDir);
        System.err.println("bench: run directory " + runDir + "; starting quanta local --only broker,registry");
        try (Infrastructure infra = Infrastructure.start(runDir)) {
            System.err.println("bench: broker " + infra.bootstrapServers() + ", registry " + infra.registryUrl());
            Bench bench = new Bench(infra, runDir, System.out, policy, commitIntervalMs, pollMs);
            List<Table> tables = body.apply(bench);
            for (Table t : tables) {
                t.print(System.out);
                if (markdown != null) {
                    try (OutputStream o = new FileOutputStream(markdown.toFile(), true);
                         PrintStream p = new PrintStream(o, true, StandardCharsets.UTF_8)) {
                        t.print(p);
                    }
                }
            }
        }
        return 0;
    }

    @Command(name = "latency", mixinStandardHelpOptions = true,
            description = "Submission to START at a steady rate with heartbeats and telemetry, next to the floor.")
    static final class Latency implements Callable<Integer> {
        @ParentCommand
        BenchMain main;
        @Option(names = "--rate", defaultValue = "50", description = "Submissions per second (${DEFAULT-VALUE}).")
        double rate;
        @Option(names = "--seconds", defaultValue = "20",
                description = "Seconds of one measured window (${DEFAULT-VALUE}).")
        double seconds;
        @Option(names = "--rounds", defaultValue = "3",
                description = "Measured windows of each side, alternating floor and Quanta (${DEFAULT-VALUE}).")
        int rounds;
        @Option(names = "--warm-up-seconds", defaultValue = "10", description = "Warm-up seconds (${DEFAULT-VALUE}).")
        double warmUp;
        @Mixin
        NodesOption fleet = new NodesOption(125);
        @Mixin
        PartitionsOption topics = new PartitionsOption(3);
        @Mixin
        HeartbeatOption heartbeats = new HeartbeatOption();
        @Option(names = "--telemetry", defaultValue = "1000", description = "Telemetry records/s (${DEFAULT-VALUE}).")
        double telemetry;
        @Option(names = "--job-ms", defaultValue = "5000", description = "How long each job runs (${DEFAULT-VALUE}).")
        long jobMs;
        @Option(names = "--trace-hops", description = "Also split Quanta's latency hop by hop (four more consumers "
                + "in the driver) and print where the slowest submissions waited.")
        boolean traceHops;

        @Override
        public Integer call() throws IOException {
            return main.run(b -> LatencyBench.run(b, new LatencyBench.Params(rate, seconds, rounds, warmUp,
                    fleet.nodes, topics.partitions, heartbeats.heartbeatMs, telemetry, jobMs, traceHops)));
        }
    }

    @Command(name = "burst", mixinStandardHelpOptions = true,
            description = "Many one-GPU submissions at once onto one big cell: placements/s, time to the last START.")
    static final class Burst implements Callable<Integer> {
        @ParentCommand
        BenchMain main;
        @Option(names = "--submissions", defaultValue = "10000", description = "Burst size (${DEFAULT-VALUE}).")
        int submissions;
        @Mixin
        NodesOption fleet = new NodesOption(1250);
        @Mixin
        PartitionsOption topics = new PartitionsOption(3);
        @Mixin
        HeartbeatOption heartbeats = new HeartbeatOption();
        @Option(names = "--warm-up", defaultValue = "200", description = "Warm-up jobs first (${DEFAULT-VALUE}).")
        int warmUp;

        @Override
        public Integer call() throws IOException {
            return main.run(b -> List.of(BurstBench.run(b, new BurstBench.Params(submissions, fleet.nodes,
                    topics.partitions, heartbeats.heartbeatMs, warmUp))));
        }
    }

    @Command(name = "telemetry", mixinStandardHelpOptions = true,
            description = "Telemetry records/s the scheduler keeps up with, next to the floor.")
    static final class Telemetry implements Callable<Integer> {
        @ParentCommand
        BenchMain main;
        @Option(names = "--records", defaultValue = "200000", description = "Telemetry records (${DEFAULT-VALUE}).")
        long records;
        @Option(names = "--jobs", defaultValue = "1000", description = "Running jobs (${DEFAULT-VALUE}).")
        int jobs;
        @Mixin
        PartitionsOption topics = new PartitionsOption(3);

        @Override
        public Integer call() throws IOException {
            return main.run(b -> List.of(TelemetryBench.run(b, new TelemetryBench.Params(records, jobs,
                    topics.partitions))));
        }
    }

    @Command(name = "scaleout", mixinStandardHelpOptions = true,
            description = "Placements/s and inbox records/s for 1, 2, 4 scheduler processes over several cells.")
    static final class ScaleOut implements Callable<Integer> {
        @ParentCommand
        BenchMain main;
        @Option(names = "--instances", split = ",", defaultValue = "1,2,4",
                description = "Instance counts (${DEFAULT-VALUE}).")
        List<Integer> instances = new ArrayList<>();
        @Option(names = "--cells", defaultValue = "8", description = "Cells (${DEFAULT-VALUE}).")
        int cells;
        @Option(names = "--nodes-per-cell", defaultValue = "40",
                description = "8-GPU nodes per cell (${DEFAULT-VALUE}).")
        int nodesPerCell;
        @Option(names = "--submissions", defaultValue = "2400", description = "Burst size (${DEFAULT-VALUE}).")
        int submissions;
        @Option(names = "--warm-up", defaultValue = "1200",
                description = "Short jobs of a warm-up burst first (${DEFAULT-VALUE}).")
        int warmUp;
        @Mixin
        PartitionsOption topics = new PartitionsOption(8);
        @Mixin
        HeartbeatOption heartbeats = new HeartbeatOption();
        @Option(names = "--telemetry", defaultValue = "500", description = "Telemetry records/s (${DEFAULT-VALUE}).")
        double telemetry;

        @Override
        public Integer call() throws IOException {
            return main.run(b -> List.of(ScaleOutBench.run(b, new ScaleOutBench.Params(instances, cells, nodesPerCell,
                    submissions, warmUp, topics.partitions, heartbeats.heartbeatMs, telemetry))));
        }
    }

    @Command(name = "failover", mixinStandardHelpOptions = true,
            description = "kill -9 of the instance owning the cell, two instances with standbys: time to the next "
                    + "START.")
    static final class Failover implements Callable<Integer> {
        @ParentCommand
        BenchMain main;
        @Option(names = "--kills", defaultValue = "10", description = "Kills (${DEFAULT-VALUE}).")
        int kills;
        @Option(names = "--standby-replicas", defaultValue = "1",
                description = "scheduler.standby.replicas (${DEFAULT-VALUE}).")
        int standbys;
        @Option(names = "--session-timeout-ms", defaultValue = "0",
                description = "Consumer session.timeout.ms of the schedulers; 0 = the scheduler's default.")
        long sessionTimeoutMs;
        @Option(names = "--transaction-timeout-ms", defaultValue = "0",
                description = "Producer transaction.timeout.ms of the schedulers; 0 = the scheduler's default "
                        + "(Kafka Streams' 10 s under exactly-once).")
        long transactionTimeoutMs;
        @Option(names = "--probe-ms", defaultValue = "100", description = "A probe job every (${DEFAULT-VALUE}) ms.")
        long probeMs;
        @Option(names = "--settle-ms", defaultValue = "10000",
                description = "Time after a restart before the next kill (${DEFAULT-VALUE}).")
        long settleMs;
        @Mixin
        NodesOption fleet = new NodesOption(16);
        @Mixin
        PartitionsOption topics = new PartitionsOption(3);

        @Override
        public Integer call() throws IOException {
            return main.run(b -> List.of(FailoverBench.run(b, new FailoverBench.Params(kills, standbys,
                    sessionTimeoutMs, transactionTimeoutMs, probeMs, settleMs, fleet.nodes, topics.partitions))));
        }
    }
}
