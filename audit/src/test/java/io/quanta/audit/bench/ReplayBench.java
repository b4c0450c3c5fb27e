package io.quanta.audit.bench;

import io.quanta.audit.log.AuditExportFile;
import io.quanta.audit.log.CellLog;
import io.quanta.audit.log.InboxRecord;
import io.quanta.audit.replay.CellReplayer;
import io.quanta.audit.replay.ReplayComparison;
import io.quanta.audit.replay.ReplayReport;
import io.quanta.audit.replay.ReplayRun;
import io.quanta.audit.replay.ReplayWindow;
import io.quanta.audit.replay.StepListener;
import io.quanta.audit.testing.RecordingCluster;
import io.quanta.audit.testing.SimulatedLogs;
import io.quanta.core.config.PolicyConfig;
import io.quanta.schemas.JobTelemetry;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.engine.EngineSettings;
import io.quanta.sim.engine.FidelityMode;
import io.quanta.sim.engine.ProgressListener;
import io.quanta.sim.engine.SimulationEngine;
import io.quanta.sim.profile.ProfileAssigner;
import io.quanta.sim.trace.Trace;
import io.quanta.sim.trace.TraceJob;
import io.quanta.sim.trace.TraceLoader;
import io.quanta.streams.SchedulerSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Replay speed: records one simulated day of {@code philly_dev_slice_2000.csv} traffic (the jobs submitted in its
 * first 24 h, on 2 racks x 12 servers x 8 GPUs, tiresias-las, node heartbeats every 5 s as the node connector's
 * default) through the real topology (the simulator's DirectTopology), then replays the cell's log {@code runs}
 * times and prints a table: inbox records and decisions per second, and the time to replay the day. A main, not a test.
 * With a fourth argument, the recorded log is kept in that export file and read from it by later runs.
 *
 * <pre>
 * java ... io.quanta.audit.bench.ReplayBench [trace.csv] [runs] [policy] [log.avro]
 * </pre>
 */
public final class ReplayBench {

    private static final Duration DAY = Duration.ofDays(1);
    private static final Duration HEARTBEAT = Duration.ofSeconds(5);
    private static final Duration LIVE_TELEMETRY_WINDOW = Duration.ofSeconds(10);

    private ReplayBench() {
    }

    public static void main(String[] args) throws Exception {
        Path tracePath = Path.of(args.length > 0 ? args[0] : "../shared/traces/philly_dev_slice_2000.csv");
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        String policy = args.length > 2 ? args[2] : "tiresias-las";
        Trace all = TraceLoader.load(tracePath);
        List<TraceJob> firstDay = all.jobs().stream().filter(j -> j.submitSeconds() < DAY.toSeconds()).toList();
        Trace trace = new Trace(all.name() + " (first day)", firstDay);
        ClusterShape shape = new ClusterShape(2, 12, 8);
        EngineSettings engine = EngineSettings.defaults().withHeartbeatInterval(HEARTBEAT);
        SchedulerSettings settings = SchedulerSettings.defaults().withPolicy(PolicyConfig.of(Map.of("policy", policy)))
                .withNodeTimeout(HEARTBEAT.multipliedBy(6));

        Path file = args.length > 3 ? Path.of(args[3]) : Files.createTempFile("quanta-audit-bench", ".avro");
        if (args.length <= 3 || !Files.exists(file)) {
            long began = System.nanoTime();
            CellLog log = record(trace, shape, engine, settings);
            double recordSeconds = seconds(began);
            System.out.printf(Locale.ROOT, "recorded %s: %d jobs, stream time %s to %s, in %.1f s (full topology "
                    + "on the simulator's DirectTopology)%n", trace.name(), trace.size(), first(log), last(log),
                    recordSeconds);
            AuditExportFile.write(log, file, Clock.systemUTC(), "bench");
        }
        long readStart = System.nanoTime();
        CellLog read = AuditExportFile.read(file);
        double readSeconds = seconds(readStart);
        long heartbeats = read.inbox().stream().filter(r -> r.input().getInput() instanceof NodeHeartbeat).count();
        long telemetry = read.inbox().stream().filter(r -> r.input().getInput() instanceof JobTelemetry).count();
        System.out.printf(Locale.ROOT, "log: %d inbox records (%d heartbeats, %d telemetry), %d decisions; export "
                        + "file %.1f MB, read in %.2f s%n", read.inbox().size(), heartbeats, telemetry,
                read.decisions().size(), Files.size(file) / 1e6, readSeconds);
        if (args.length <= 3) {
            Files.delete(file);
        }
        CellLog log = read;

        System.out.println();
        System.out.println("| run | inbox records | decisions | replay + compare (s) | records/s | decisions/s "
                + "| all reproduced |");
        System.out.println("|---|---|---|---|---|---|---|");
        double best = Double.MAX_VALUE;
        for (int run = 1; run <= runs; run++) {
            long start = System.nanoTime();
            ReplayRun replay = CellReplayer.withBuiltInPolicies().run(read, ReplayWindow.all(), StepListener.NONE);
            ReplayReport report = ReplayComparison.compare(read, replay, ReplayWindow.all(), "bench", 3);
            double s = seconds(start);
            best = Math.min(best, s);
            System.out.printf(Locale.ROOT, "| %d | %d | %d | %.2f | %.0f | %.0f | %s |%n", run,
                    replay.recordsApplied(), report.compared(), s, replay.recordsApplied() / s,
                    report.compared() / s, report.allReproduced() ? "yes" : "NO (" + report.diverged() + ")");
        }
        double rate = read.inbox().size() / best;
        long running = Math.round((double) telemetryAttemptSeconds(log) / LIVE_TELEMETRY_WINDOW.toSeconds());
        System.out.println();
        System.out.printf(Locale.ROOT, "one simulated day replays in %.1f s (best of %d)%n", best, runs);
        System.out.printf(Locale.ROOT, "a live day adds one telemetry record per running attempt every %d s: about %d "
                + "more records here, %.1f s more at %.0f records/s%n", LIVE_TELEMETRY_WINDOW.toSeconds(), running,
                running / rate, rate);
    }

    private static CellLog record(Trace trace, ClusterShape shape, EngineSettings engine, SchedulerSettings settings) {
        Instant end = engine.origin().plus(DAY);
        try (RecordingCluster cluster = new RecordingCluster(settings, SimulatedLogs.CELL).stopAfter(end)) {
            try {
                new SimulationEngine(trace, shape, FidelityMode.REALISTIC, ProfileAssigner.standard(1), cluster, engine,
                        ProgressListener.NONE, System::nanoTime).run(settings.policy().policyName());
            } catch (RecordingCluster.RecordingComplete done) {
                // one day recorded
            }
            return cluster.log(SimulatedLogs.CELL);
        }
    }

    /** Attempt-seconds of running jobs over the day, from START/FINISH pairs in the inbox's events. */
    private static long telemetryAttemptSeconds(CellLog log) {
        long running = 0;
        long previous = -1;
        int active = 0;
        for (InboxRecord r : log.inbox()) {
            if (previous >= 0) {
                running += active * (r.timestampMs() - previous) / 1000;
            }
            previous = r.timestampMs();
            if (r.input().getInput() instanceof io.quanta.schemas.JobEvent e) {
                switch (e.getType()) {
                    case STARTED -> active++;
                    case COMPLETED, FAILED, SUSPENDED, LOST -> active = Math.max(0, active - 1);
                    default -> { }
                }
            }
        }
        return running;
    }

    private static Instant first(CellLog log) {
        return log.inbox().get(0).timestamp();
    }

    private static Instant last(CellLog log) {
        return log.inbox().get(log.inbox().size() - 1).timestamp();
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
