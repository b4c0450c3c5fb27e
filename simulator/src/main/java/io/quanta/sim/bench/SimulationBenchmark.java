package io.quanta.sim.bench;

import io.quanta.sim.Simulator;
import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.engine.EngineSettings;
import io.quanta.sim.engine.FidelityMode;
import io.quanta.sim.engine.SimulationRun;
import io.quanta.sim.metrics.Summary;
import io.quanta.sim.report.Numbers;
import io.quanta.sim.report.TerminalProgress;
import io.quanta.sim.topology.TopologyScheduler;
import io.quanta.sim.trace.Trace;
import io.quanta.sim.trace.TraceLoader;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The simulator's speed benchmark (not a test): one policy over a whole trace through the real topology, then a table
 * of wall time, rates and memory. Arguments: {@code TRACE [CLUSTER=3x32x8] [POLICY=tiresias-las]
 * [MODEL=realistic] [LIMIT=0]}. Memory is the JVM's peak heap (sum of the heap pools' peaks) and, on Linux, the
 * process's peak resident set ({@code VmHWM}).
 */
public final class SimulationBenchmark {

    private SimulationBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: SimulationBenchmark TRACE [CLUSTER=3x32x8] [POLICY=tiresias-las] "
                    + "[MODEL=realistic] [LIMIT=0]");
            System.exit(2);
        }
        Path tracePath = Path.of(args[0]);
        ClusterShape cluster = ClusterShape.parse(args.length > 1 ? args[1] : "3x32x8");
        String policy = args.length > 2 ? args[2] : "tiresias-las";
        FidelityMode mode = FidelityMode.parse(args.length > 3 ? args[3] : "realistic");
        int limit = args.length > 4 ? Integer.parseInt(args[4]) : 0;
        long loadStart = System.nanoTime();
        Trace trace = TraceLoader.load(tracePath);
        if (limit > 0) {
            trace = trace.first(limit);
        }
        double loadSeconds = (System.nanoTime() - loadStart) / 1e9;
        long cpuStart = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        AtomicReference<TopologyScheduler> scheduler = new AtomicReference<>();
        SimulationRun run = new Simulator((params, timeout) -> {
            scheduler.set(TopologyScheduler.create(params, timeout));
            return scheduler.get();
        }, EngineSettings.defaults(), System::nanoTime)
                .run(trace, cluster, mode, Map.of("policy", policy), 1, TerminalProgress.every2s(System.err, policy));
        double cpu = (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpuStart) / 1e9;
        Summary s = run.summary();
        double wall = run.stats().wallSeconds();
        long gcMillis = ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(GarbageCollectorMXBean::getCollectionTime).sum();
        long peakHeap = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getPeakUsage)
                .mapToLong(u -> u.getUsed()).sum();
        System.out.println("| figure | value |");
        System.out.println("|---|---|");
        row("trace", trace.name() + " (" + trace.size() + " jobs, loaded in " + Numbers.human(loadSeconds, 2) + " s)");
        row("cluster / policy / model", cluster + " (" + cluster.totalGpus() + " GPUs) / " + policy + " / "
                + mode.label());
        row("jobs finished", s.finished() + " of " + s.jobs() + " (" + run.stats().stopReason() + ")");
        row("wall time of the run", Numbers.human(wall, 1) + " s");
        row("CPU time of the simulation thread", Numbers.human(cpu, 1) + " s (" + Numbers.human(100 * cpu / wall, 0)
                + "% of the wall time)");
        row("simulated time", Numbers.duration(run.stats().simulatedSeconds()) + " ("
                + Numbers.human(run.stats().simulatedSeconds(), 0) + " s)");
        row("simulated s per wall s", Numbers.human(s.simulatedSecondsPerWallSecond(), 0));
        row("decisions", s.decisions() + " (" + Numbers.human(s.decisionsPerWallSecond(), 0) + " per wall s)");
        row("input records to the topology", run.stats().inputRecords() + " ("
                + Numbers.human(run.stats().inputRecords() / wall, 0) + " per wall s)");
        row("inputs by kind", run.stats().inputs().toString());
        long passes = scheduler.get().passes();
        row("scheduling passes", passes + " (" + Numbers.human(1e6 * cpu / Math.max(1, passes), 0)
                + " µs of simulation-thread CPU per pass, everything included)");
        row("event-loop steps", Long.toString(run.stats().steps()));
        row("avg JCT", Numbers.human(s.avgJct(), 0) + " s");
        row("peak heap (JVM pools)", Numbers.human(peakHeap / 1048576.0, 0) + " MiB (max heap "
                + Numbers.human(Runtime.getRuntime().maxMemory() / 1048576.0, 0) + " MiB)");
        row("peak RSS (VmHWM)", peakRss());
        row("GC time", Numbers.human(gcMillis / 1000.0, 1) + " s");
        row("available processors", Integer.toString(Runtime.getRuntime().availableProcessors()));
    }

    private static void row(String name, String value) {
        System.out.println(String.format(Locale.ROOT, "| %s | %s |", name, value));
    }

    private static String peakRss() {
        Path status = Path.of("/proc/self/status");
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("VmHWM:")) {
                    long kib = Long.parseLong(line.replaceAll("[^0-9]", ""));
                    return Numbers.human(kib / 1024.0, 0) + " MiB";
                }
            }
        } catch (java.io.IOException | NumberFormatException e) {
            return "unknown (" + e.getMessage() + ")";
        }
        return "unknown";
    }
}
