package io.quanta.cli.observe;

import io.quanta.schemas.DecisionType;
import io.quanta.schemas.GpuInfo;
import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.schemas.RunningAttempt;
import io.quanta.schemas.SchedulingDecision;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The cluster as the scheduler's outputs and the nodes' heartbeats describe it: jobs per state and queue level, GPUs
 * busy and free, decisions by type and the latest ones with their reasons, dead letters. Fed by a
 * {@link ClusterObserver}; read from any thread through {@link #snapshot()}.
 */
public final class ClusterView implements RecordSink {

    private final int recentDecisions;
    private static final Set<JobState> TERMINAL = java.util.EnumSet.of(JobState.FINISHED, JobState.FAILED,
            JobState.REJECTED, JobState.CANCELLED);

    /** Jobs not ended yet; ended ones are only counted, so memory stays bounded by the active jobs. */
    private final Map<String, JobStatus> jobs = new HashMap<>();
    private final Map<JobState, Integer> ended = new EnumMap<>(JobState.class);
    private final Map<String, NodeHeartbeat> nodes = new TreeMap<>();
    private final Map<DecisionType, Long> decisions = new EnumMap<>(DecisionType.class);
    private final Deque<SchedulingDecision> recent = new ArrayDeque<>();
    private long deadLetters;
    private Snapshot cached;

    /** @param recentDecisions how many of the latest decisions to keep */
    public ClusterView(int recentDecisions) {
        this.recentDecisions = recentDecisions;
    }

    @Override
    public synchronized void status(JobStatus status) {
        cached = null;
        if (TERMINAL.contains(status.getState())) {
            jobs.remove(status.getJobId());
            ended.merge(status.getState(), 1, Integer::sum);
        } else {
            jobs.put(status.getJobId(), status);
        }
    }

    @Override
    public synchronized void decision(SchedulingDecision decision) {
        cached = null;
        decisions.merge(decision.getType(), 1L, Long::sum);
        if (decision.getType() != DecisionType.CONFIG) {
            recent.addLast(decision);
            while (recent.size() > recentDecisions) {
                recent.removeFirst();
            }
        }
    }

    @Override
    public synchronized void deadLetter(io.quanta.schemas.DeadLetter letter) {
        cached = null;
        deadLetters++;
    }

    @Override
    public synchronized void heartbeat(NodeHeartbeat heartbeat) {
        cached = null;
        nodes.merge(heartbeat.getNodeId(), heartbeat, (a, b) -> b.getSentAt().isBefore(a.getSentAt()) ? a : b);
    }

    /** An immutable summary of the current state (computed once per change, so many gauges can read it). */
    public synchronized Snapshot snapshot() {
        if (cached == null) {
            cached = compute();
        }
        return cached;
    }

    private Snapshot compute() {
        Map<JobState, Integer> byState = new EnumMap<>(ended);
        Map<Integer, Integer> queuedByLevel = new TreeMap<>();
        for (JobStatus s : jobs.values()) {
            byState.merge(s.getState(), 1, Integer::sum);
            if (s.getState() == JobState.QUEUED) {
                queuedByLevel.merge(s.getQueueLevel(), 1, Integer::sum);
            }
        }
        int total = 0;
        int busy = 0;
        int unhealthy = 0;
        for (NodeHeartbeat hb : nodes.values()) {
            Set<Integer> used = new HashSet<>();
            for (RunningAttempt r : hb.getRunning()) {
                used.addAll(r.getGpuIndices());
            }
            for (GpuInfo g : hb.getGpus()) {
                total++;
                if (!g.getHealthy()) {
                    unhealthy++;
                } else if (used.contains(g.getIndex())) {
                    busy++;
                }
            }
        }
        return new Snapshot(Map.copyOf(byState), Map.copyOf(queuedByLevel), nodes.size(), total, busy, unhealthy,
                Map.copyOf(decisions), List.copyOf(recent), deadLetters);
    }

    /**
     * The cluster at one moment.
     *
     * @param jobsByState jobs per state (latest status of every job seen)
     * @param queuedByLevel queued jobs per queue level
     * @param nodes nodes heard from
     * @param gpus GPUs of those nodes
     * @param busyGpus GPUs running at least one attempt
     * @param unhealthyGpus GPUs reported unhealthy
     * @param decisionsByType decisions seen, by type
     * @param recentDecisions the latest decisions (CONFIG records excluded), oldest first
     * @param deadLetters dead-letter records seen
     */
    public record Snapshot(Map<JobState, Integer> jobsByState, Map<Integer, Integer> queuedByLevel, int nodes,
                           int gpus, int busyGpus, int unhealthyGpus, Map<DecisionType, Long> decisionsByType,
                           List<SchedulingDecision> recentDecisions, long deadLetters) {

        /** Jobs in {@code state}. */
        public int jobs(JobState state) {
            return jobsByState.getOrDefault(state, 0);
        }

        /** Healthy GPUs running nothing. */
        public int freeGpus() {
            return gpus - busyGpus - unhealthyGpus;
        }

        /** Jobs holding or about to hold GPUs. */
        public int running() {
            return jobs(JobState.RUNNING) + jobs(JobState.STARTING) + jobs(JobState.SUSPENDING);
        }
    }
}
