package io.quanta.sim.report;

import io.quanta.schemas.DecisionType;
import io.quanta.sim.engine.SimulationRun;
import io.quanta.sim.metrics.RunStats;
import io.quanta.sim.metrics.Summary;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/** Renders a run's summary as JSON (for tools) and as aligned text (for people). */
public final class SummaryWriter {

    private SummaryWriter() {
    }

    /**
     * The summary as a JSON object: {@code facts} (what ran: policy, params, trace, cluster, mode, seed), the figures
     * of {@link Summary#asMap()}, the run counters and the decision counts by type.
     */
    public static String json(Map<String, String> facts, SimulationRun run) {
        StringJoiner root = new StringJoiner(",\n  ", "{\n  ", "\n}\n");
        StringJoiner f = new StringJoiner(", ", "{", "}");
        facts.forEach((k, v) -> f.add(Numbers.jsonString(k) + ": " + Numbers.jsonString(v)));
        root.add("\"run\": " + f);
        StringJoiner s = new StringJoiner(", ", "{", "}");
        run.summary().asMap().forEach((k, v) -> s.add(Numbers.jsonString(k) + ": " + Numbers.json(v)));
        root.add("\"summary\": " + s);
        RunStats st = run.stats();
        root.add("\"counters\": {\"simulated_s\": " + Numbers.json(st.simulatedSeconds())
                + ", \"input_records\": " + st.inputRecords() + ", \"steps\": " + st.steps()
                + ", \"dead_letters\": " + st.deadLetters() + ", \"submissions\": " + st.inputs().submissions()
                + ", \"events\": " + st.inputs().events() + ", \"telemetry\": " + st.inputs().telemetry()
                + ", \"heartbeats\": " + st.inputs().heartbeats() + ", \"ticks\": " + st.inputs().ticks() + ", \"total_gpus\": " + st.totalGpus()
                + ", \"stop_reason\": " + Numbers.jsonString(st.stopReason()) + "}");
        StringJoiner d = new StringJoiner(", ", "{", "}");
        new TreeMap<DecisionType, Long>(run.decisionCounts())
                .forEach((k, v) -> d.add(Numbers.jsonString(k.name()) + ": " + v));
        root.add("\"decisions_by_type\": " + d);
        return root.toString();
    }

    /** The summary as aligned {@code name: value} lines. */
    public static String text(Map<String, String> facts, SimulationRun run) {
        StringBuilder b = new StringBuilder();
        facts.forEach((k, v) -> line(b, k, v));
        Summary s = run.summary();
        line(b, "jobs", s.jobs() + " (finished " + s.finished() + ", unfinished " + s.unfinished() + ")");
        line(b, "avg JCT", Numbers.human(s.avgJct(), 0) + " s");
        line(b, "median JCT", Numbers.human(s.medianJct(), 0) + " s");
        line(b, "p95 JCT", Numbers.human(s.p95Jct(), 0) + " s");
        line(b, "p99 JCT", Numbers.human(s.p99Jct(), 0) + " s");
        line(b, "max JCT", Numbers.human(s.maxJct(), 0) + " s");
        line(b, "avg queueing delay", Numbers.human(s.avgQueueingDelay(), 0) + " s");
        line(b, "avg wait after start", Numbers.human(s.avgWaitingAfterStart(), 0) + " s (suspended, waiting to resume)");
        line(b, "avg run over duration", Numbers.human(s.avgRunningBeyond(), 0)
                + " s (packed, spread, checkpoints and restarts)");
        line(b, "makespan", Numbers.human(s.makespan(), 0) + " s (" + Numbers.duration(s.makespan()) + ")");
        line(b, "GPU utilisation", "allocated " + Numbers.human(100 * s.utilisationAllocated(), 1) + "%, useful "
                + Numbers.human(100 * s.utilisationUseful(), 1) + "%");
        line(b, "preemptions per job", Numbers.human(s.preemptionsPerJob(), 3));
        line(b, "migrations per job", Numbers.human(s.migrationsPerJob(), 3));
        line(b, "decisions", s.decisions() + " (" + Numbers.human(s.decisionsPerWallSecond(), 0) + " per wall s)");
        line(b, "simulated", Numbers.duration(run.stats().simulatedSeconds()) + " in "
                + Numbers.human(s.wallSeconds(), 1) + " s wall (" + Numbers.human(s.simulatedSecondsPerWallSecond(), 0)
                + " simulated s per wall s)");
        line(b, "input records", run.stats().inputRecords() + " (" + run.stats().inputs() + ")");
        line(b, "stopped", run.stats().stopReason());
        return b.toString();
    }

    private static void line(StringBuilder b, String name, String value) {
        b.append(String.format(java.util.Locale.ROOT, "%-22s %s%n", name + ":", value));
    }
}
