package io.quanta.streams.cell;

import io.quanta.core.config.PolicyConfig;
import io.quanta.core.policy.PolicyRegistry;
import io.quanta.schemas.CellInput;
import io.quanta.schemas.DeadLetter;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeCommandType;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.streams.testing.Records;
import io.quanta.topics.serde.AvroTrust;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * The cell engine alone (no Kafka, no stores) under a burst shaped like {@code bench/run burst}: {@code nodes}
 * 8-GPU nodes register, then {@code submissions} one-GPU submissions arrive {@code perMs} per millisecond of stream
 * time (40 by default; 1 moves the stream time with every submission, as the real topology's STARTED events do), each
 * followed by one heartbeat (nodes in turn) and, {@code lag} records later, the STARTED event of the job it started.
 * Prints the thread CPU per submission (every record included), the passes and their mean thread CPU, and a SHA-256
 * of every decision and command, so that a change to the engine shows its cost and that it decided nothing
 * differently. Not a test: a main (the command is in docs/benchmarks.md).
 *
 * <p>Arguments: {@code [nodes=1250] [submissions=10000] [policy=tiresias-las] [runs=3] [lag=50] [perMs=40]}.
 */
public final class CellBurstBenchmark {

    private CellBurstBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 1250;
        int submissions = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        String policy = args.length > 2 ? args[2] : "tiresias-las";
        int runs = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        int lag = args.length > 4 ? Integer.parseInt(args[4]) : 50;
        int perMs = args.length > 5 ? Integer.parseInt(args[5]) : 40;
        AvroTrust.trustQuantaSchemas();
        System.out.println("| run | submissions | passes | CPU per submission, all records (ms) | CPU per pass (ms) | "
                + "decisions | commands | digest of decisions and commands |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        for (int run = 1; run <= runs; run++) {
            once(run, nodes, submissions, policy, lag, perMs);
        }
    }

    private static void once(int run, int nodeCount, int submissions, String policy, int lag, int perMs)
            throws Exception {
        PolicyConfig config = PolicyConfig.defaults(policy);
        long[] passNanos = new long[2];
        PassTimer timer = new PassTimer() {
            @Override
            public long start() {
                return threadCpu();
            }

            @Override
            public void stop(long started) {
                passNanos[0] += threadCpu() - started;
                passNanos[1]++;
            }
        };
        CellEngine engine = new CellEngine(PolicyRegistry.builtIn().create(config), Duration.ofSeconds(1),
                Duration.ofSeconds(30), AttemptTimeouts.OFF, ConfigFingerprint.of(config, Duration.ofSeconds(1),
                Duration.ofSeconds(30), Duration.ZERO, "bench"), timer);
        String cellId = "cell-0";
        CellState cell = new CellState(cellId, new CellMeta(cellId), config.newServiceDistribution(),
                config.newInterferenceMemory());
        Digest out = new Digest();
        long t0 = Records.at(0).toEpochMilli();
        long offset = 0;
        for (int n = 0; n < nodeCount; n++) {
            step(engine, cell, heartbeat(cellId, n, t0), t0, offset++, out);
        }
        long cpu = threadCpu();
        passNanos[0] = 0;
        passNanos[1] = 0;
        ArrayDeque<NodeCommand> toConfirm = new ArrayDeque<>();
        for (int i = 0; i < submissions; i++) {
            long ts = t0 + 1 + i / perMs;
            CellInput job = new CellInput(cellId, Records.job("job-" + i, 1).setTenant("t0").build(), null);
            step(engine, cell, job, ts, offset++, out);
            toConfirm.addAll(out.takeStarts());
            step(engine, cell, heartbeat(cellId, i % nodeCount, ts), ts, offset++, out);
            if (toConfirm.size() > lag) {
                step(engine, cell, started(cellId, toConfirm.poll(), ts), ts, offset++, out);
            }
        }
        long last = t0 + 1 + submissions / perMs;
        while (!toConfirm.isEmpty()) {
            step(engine, cell, started(cellId, toConfirm.poll(), last), last, offset++, out);
        }
        cpu = threadCpu() - cpu;
        System.out.printf(Locale.ROOT, "| %d | %d | %d | %.3f | %.3f | %d | %d | %s |%n", run, submissions,
                passNanos[1], cpu / 1e6 / submissions, passNanos[1] == 0 ? 0 : passNanos[0] / 1e6 / passNanos[1],
                out.decisions, out.commands, out.hex());
    }

    private static void step(CellEngine engine, CellState cell, CellInput input, long ts, long offset, Digest out) {
        engine.process(cell, input, ts, offset, out);
        cell.clearChanges(); // what CellRepository.flush does, without the stores
    }

    private static CellInput heartbeat(String cellId, int n, long ts) {
        return new CellInput(cellId, Records.node(String.format("node-%05d", n), cellId, 8, 1,
                Instant.ofEpochMilli(ts)).setRack("r" + n / 32).build(), null);
    }

    private static CellInput started(String cellId, NodeCommand start, long ts) {
        return new CellInput(cellId, Records.event(start.getJobId(), start.getAttempt(), start.getNodeId(),
                JobEventType.STARTED, Instant.ofEpochMilli(ts)), null);
    }

    private static long threadCpu() {
        return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }

    /** Counts and hashes the engine's decisions and commands (their Avro JSON text), keeps the STARTs. */
    private static final class Digest implements CellOutput {
        private final MessageDigest sha;
        private final List<NodeCommand> starts = new ArrayList<>();
        long decisions;
        long commands;

        Digest() throws Exception {
            sha = MessageDigest.getInstance("SHA-256");
        }

        @Override
        public void command(NodeCommand command) {
            commands++;
            sha.update(command.toString().getBytes(StandardCharsets.UTF_8));
            if (command.getType() == NodeCommandType.START) {
                starts.add(command);
            }
        }

        @Override
        public void decision(SchedulingDecision decision) {
            decisions++;
            sha.update(decision.toString().getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public void status(JobStatus status) {
            sha.update(status.toString().getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public void deadLetter(String key, DeadLetter deadLetter) {
            sha.update(deadLetter.toString().getBytes(StandardCharsets.UTF_8));
        }

        List<NodeCommand> takeStarts() {
            List<NodeCommand> out = List.copyOf(starts);
            starts.clear();
            return out;
        }

        String hex() {
            try {
                return HexFormat.of().formatHex(((MessageDigest) sha.clone()).digest()).substring(0, 16);
            } catch (CloneNotSupportedException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
