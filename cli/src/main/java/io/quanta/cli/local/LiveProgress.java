package io.quanta.cli.local;

import io.quanta.cli.client.Durations;
import io.quanta.cli.observe.ClusterView;
import io.quanta.schemas.GpuRef;
import io.quanta.schemas.JobState;
import io.quanta.schemas.SchedulingDecision;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The terminal progress of {@code quanta local}: one status line per tick (wall and simulated time, GPUs busy and
 * free, jobs queued per level, running and finished, workload progress) followed by the decisions made since the last
 * line, each with its reason. Pure formatting over {@link ClusterView.Snapshot}s; the caller decides when to tick.
 */
public final class LiveProgress {

    private static final int MAX_DECISIONS_PER_TICK = 4;
    private static final int REASON_WIDTH = 110;

    private final PrintWriter out;
    private SchedulingDecision lastShown;

    public LiveProgress(PrintWriter out) {
        this.out = out;
    }

    /**
     * Prints one tick.
     *
     * @param wall time since start
     * @param simulatedSeconds simulated time of the workload, negative when none plays
     * @param workload e.g. {@code 120/500 done}, empty when no workload plays
     */
    public void tick(Duration wall, double simulatedSeconds, ClusterView.Snapshot s, String workload) {
        out.println(line(wall, simulatedSeconds, s, workload));
        List<SchedulingDecision> fresh = unseen(s.recentDecisions());
        int skipped = Math.max(0, fresh.size() - MAX_DECISIONS_PER_TICK);
        if (skipped > 0) {
            out.println("    ... " + skipped + " more decisions");
        }
        fresh.stream().skip(skipped).forEach(d -> out.println("    " + decision(d)));
        out.flush();
    }

    /** The status line. */
    static String line(Duration wall, double simulatedSeconds, ClusterView.Snapshot s, String workload) {
        StringBuilder b = new StringBuilder("[").append(clock(wall));
        if (simulatedSeconds >= 0) {
            b.append(" | sim ").append(Durations.human(Duration.ofSeconds(Math.round(simulatedSeconds))));
        }
        b.append("] GPUs ").append(s.busyGpus()).append('/').append(s.gpus()).append(" busy, ").append(s.freeGpus())
                .append(" free");
        if (s.unhealthyGpus() > 0) {
            b.append(", ").append(s.unhealthyGpus()).append(" unhealthy");
        }
        b.append(" | queued ").append(s.jobs(JobState.QUEUED));
        if (!s.queuedByLevel().isEmpty()) {
            b.append(" (").append(new TreeMap<>(s.queuedByLevel()).entrySet().stream()
                    .map(e -> "L" + e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "))).append(')');
        }
        b.append(", running ").append(s.running()).append(", finished ").append(s.jobs(JobState.FINISHED));
        int failed = s.jobs(JobState.FAILED) + s.jobs(JobState.REJECTED) + s.jobs(JobState.CANCELLED);
        if (failed > 0) {
            b.append(", failed/rejected/cancelled ").append(failed);
        }
        if (!workload.isEmpty()) {
            b.append(" | workload ").append(workload);
        }
        return b.toString();
    }

    /** One decision: type, job, GPUs, reason. */
    static String decision(SchedulingDecision d) {
        String gpus = d.getGpus().isEmpty() ? "" : " on " + gpus(d.getGpus());
        String reason = d.getReason().length() > REASON_WIDTH ? d.getReason().substring(0, REASON_WIDTH - 3) + "..."
                : d.getReason();
        return String.format(Locale.ROOT, "%-9s %s%s: %s", d.getType(), d.getJobId() == null ? d.getCellId()
                : d.getJobId(), gpus, reason);
    }

    private static String gpus(List<GpuRef> refs) {
        Map<String, List<Integer>> byNode = new TreeMap<>();
        refs.forEach(r -> byNode.computeIfAbsent(r.getNodeId(), k -> new java.util.ArrayList<>()).add(r.getIndex()));
        return byNode.entrySet().stream().map(e -> e.getKey() + e.getValue().toString().replace(" ", ""))
                .collect(Collectors.joining(","));
    }

    private List<SchedulingDecision> unseen(List<SchedulingDecision> recent) {
        int from = lastShown == null ? 0 : recent.lastIndexOf(lastShown) + 1;
        List<SchedulingDecision> fresh = recent.subList(Math.max(0, from), recent.size());
        if (!recent.isEmpty()) {
            lastShown = recent.get(recent.size() - 1);
        }
        return fresh;
    }

    private static String clock(Duration d) {
        long s = d.toSeconds();
        return s >= 3600 ? String.format("%d:%02d:%02d", s / 3600, (s % 3600) / 60, s % 60)
                : String.format("%d:%02d", s / 60, s % 60);
    }
}
