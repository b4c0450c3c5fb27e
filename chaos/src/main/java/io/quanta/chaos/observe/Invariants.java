package io.quanta.chaos.observe;

import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeCommandType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The promises of a run, checked on what the topics recorded: every job ends exactly once, no GPU runs two attempts
 * at once, no attempt runs twice, attained service never goes back, and two attempts of one job never overlap.
 * Each check returns the violations it found, described (empty: kept).
 */
public final class Invariants {

    private static final Set<JobState> FINAL = EnumSet.of(JobState.FINISHED, JobState.FAILED, JobState.REJECTED,
            JobState.CANCELLED);
    private static final Set<JobEventType> ENDS = EnumSet.of(JobEventType.COMPLETED, JobEventType.FAILED,
            JobEventType.SUSPENDED, JobEventType.LOST);

    private Invariants() {
    }

    /**
     * The executions the connectors reported: one per (job, attempt, node), from its first STARTED.
     *
     * @param nodeKills when each node's connector was killed ({@code kill -9}, millis): an attempt running then
     *                  died then, whatever its connector reports later
     */
    public static List<Execution> executions(List<Seen<JobEvent>> events, List<Seen<NodeCommand>> commands,
                                             Map<String, List<Long>> nodeKills) {
        Map<String, List<Integer>> gpus = new LinkedHashMap<>();
        for (Seen<NodeCommand> c : commands) {
            NodeCommand cmd = c.value();
            if (cmd.getType() == NodeCommandType.START) {
                gpus.putIfAbsent(key(cmd.getJobId(), cmd.getAttempt(), cmd.getNodeId()), cmd.getGpuIndices());
            }
        }
        Map<String, JobEvent> starts = new LinkedHashMap<>();
        Map<String, List<Seen<JobEvent>>> ends = new LinkedHashMap<>();
        for (Seen<JobEvent> s : events) {
            JobEvent e = s.value();
            String key = key(e.getJobId(), e.getAttempt(), e.getNodeId());
            if (e.getType() == JobEventType.STARTED) {
                starts.putIfAbsent(key, e);
            } else if (ENDS.contains(e.getType())) {
                ends.computeIfAbsent(key, k -> new ArrayList<>()).add(s);
            }
        }
        List<Execution> out = new ArrayList<>();
        starts.forEach((key, start) -> {
            long startAt = start.getAt().toEpochMilli();
            Seen<JobEvent> end = ends.getOrDefault(key, List.of()).stream()
                    .filter(e -> e.value().getAt().toEpochMilli() >= startAt)
                    .min(Comparator.comparingLong(Invariants::endedAt)).orElse(null);
            long endAt = end == null ? Long.MAX_VALUE : Math.max(startAt, endedAt(end));
            String endType = end == null ? "OPEN" : end.value().getType().name();
            long killedAt = nodeKills.getOrDefault(start.getNodeId(), List.of()).stream()
                    .filter(k -> k >= startAt).min(Long::compare).orElse(Long.MAX_VALUE);
            if (killedAt < endAt) {
                endAt = killedAt;
                endType = "KILLED";
            }
            out.add(new Execution(start.getJobId(), start.getAttempt(), start.getNodeId(), start.getEpoch(), startAt,
                    endAt, endType, gpus.getOrDefault(key, List.of())));
        });
        return out;
    }

    /**
     * When an attempt ended: its end event's time, or the time the broker appended that event if earlier (the events
     * topic uses LogAppendTime; a connector may stamp an end it computed ahead, as the simulated runner does with a
     * completion, and once the event is in the log the attempt has stopped).
     */
    private static long endedAt(Seen<JobEvent> end) {
        return Math.min(end.value().getAt().toEpochMilli(), end.timestamp());
    }

    /** Two executions on one GPU at one instant (packing is off in every scenario). */
    public static List<String> gpuOverlaps(List<Execution> executions) {
        Map<String, List<Execution>> byGpu = new TreeMap<>();
        for (Execution e : executions) {
            for (int gpu : e.gpus()) {
                byGpu.computeIfAbsent(e.nodeId() + "/" + gpu, k -> new ArrayList<>()).add(e);
            }
        }
        List<String> out = new ArrayList<>();
        byGpu.forEach((gpu, list) -> {
            list.sort(Comparator.comparingLong(Execution::startAt));
            for (int i = 0; i < list.size(); i++) {
                for (int j = i + 1; j < list.size() && list.get(j).startAt() < list.get(i).endAt(); j++) {
                    out.add("GPU " + gpu + " held by " + list.get(i) + " and " + list.get(j));
                }
            }
        });
        return out;
    }

    /** Two different attempts of one job running at one instant (gang members of one attempt may). */
    public static List<String> attemptOverlaps(List<Execution> executions) {
        return overlaps(executions, false);
    }

    /**
     * The overlaps of {@link #attemptOverlaps} where the earlier attempt was a gang that one member had already ended
     * (its end event, or its connector's kill) when the later attempt started, and another member still ran it: the
     * job restarted before every member of its previous attempt confirmed its end.
     */
    public static List<String> gangPeerOverlaps(List<Execution> executions) {
        return overlaps(executions, true);
    }

    private static List<String> overlaps(List<Execution> executions, boolean gangPeersOnly) {
        Map<String, List<Execution>> byJob = new TreeMap<>();
        executions.forEach(e -> byJob.computeIfAbsent(e.jobId(), k -> new ArrayList<>()).add(e));
        List<String> out = new ArrayList<>();
        byJob.forEach((job, list) -> {
            for (int i = 0; i < list.size(); i++) {
                for (int j = i + 1; j < list.size(); j++) {
                    Execution a = list.get(i).attempt() < list.get(j).attempt() ? list.get(i) : list.get(j);
                    Execution b = a == list.get(i) ? list.get(j) : list.get(i);
                    if (a.attempt() != b.attempt() && a.overlaps(b)
                            && (!gangPeersOnly || endedByPeer(list, a, b.startAt()))) {
                        out.add("job " + job + ": " + a + " overlaps " + b);
                    }
                }
            }
        });
        return out;
    }

    private static boolean endedByPeer(List<Execution> executions, Execution running, long restartAt) {
        return executions.stream().anyMatch(e -> e.attempt() == running.attempt()
                && !e.nodeId().equals(running.nodeId()) && e.endAt() <= restartAt);
    }

    /**
     * Attempts started twice: STARTED of one (job, attempt, node) in more than one connector epoch, or twice in one
     * epoch with different content, or on a node no START of that attempt named. Identical copies of one event (a
     * durable journal redelivering after a kill -9) are not double executions; they are counted in
     * {@code duplicates}.
     */
    public static List<String> doubleStarts(List<Seen<JobEvent>> events, List<Seen<NodeCommand>> commands,
                                            long[] duplicates) {
        Set<String> commanded = new LinkedHashSet<>();
        for (Seen<NodeCommand> c : commands) {
            if (c.value().getType() == NodeCommandType.START) {
                commanded.add(key(c.value().getJobId(), c.value().getAttempt(), c.value().getNodeId()));
            }
        }
        Map<String, List<JobEvent>> started = new LinkedHashMap<>();
        for (Seen<JobEvent> s : events) {
            if (s.value().getType() == JobEventType.STARTED) {
                JobEvent e = s.value();
                started.computeIfAbsent(key(e.getJobId(), e.getAttempt(), e.getNodeId()), k -> new ArrayList<>())
                        .add(e);
            }
        }
        List<String> out = new ArrayList<>();
        long copies = 0;
        for (Map.Entry<String, List<JobEvent>> entry : started.entrySet()) {
            List<JobEvent> list = entry.getValue();
            Set<JobEvent> distinct = new LinkedHashSet<>(list);
            copies += list.size() - distinct.size();
            Set<Long> epochs = new LinkedHashSet<>();
            distinct.forEach(e -> epochs.add(e.getEpoch()));
            if (epochs.size() > 1) {
                out.add(entry.getKey() + " STARTED in epochs " + epochs);
            } else if (distinct.size() > 1) {
                out.add(entry.getKey() + " STARTED " + distinct.size() + " times in epoch " + epochs
                        + " with different content: " + distinct);
            }
            if (!commanded.contains(entry.getKey())) {
                out.add(entry.getKey() + " STARTED without a START command for that node");
            }
        }
        duplicates[0] = copies;
        return out;
    }

    /** Jobs without a final state, or with more than one, or with a non-final status after a final one. */
    public static List<String> finalStates(Set<String> submitted, List<Seen<JobStatus>> statuses) {
        Map<String, List<JobStatus>> byJob = byJob(statuses);
        List<String> out = new ArrayList<>();
        for (String job : submitted) {
            List<JobStatus> list = byJob.getOrDefault(job, List.of());
            Set<JobState> finals = EnumSet.noneOf(JobState.class);
            boolean reopened = false;
            for (JobStatus s : list) {
                if (FINAL.contains(s.getState())) {
                    finals.add(s.getState());
                } else if (!finals.isEmpty()) {
                    reopened = true;
                }
            }
            if (finals.isEmpty()) {
                out.add(job + " has no final state (last: " + (list.isEmpty() ? "no status"
                        : list.get(list.size() - 1).getState() + ", attempt " + list.get(list.size() - 1).getAttempt())
                        + ")");
            } else if (finals.size() > 1) {
                out.add(job + " reached several final states " + finals);
            } else if (reopened) {
                out.add(job + " had a non-final status after its final state " + finals);
            }
        }
        return out;
    }

    /** The final state of each job that has one. */
    public static Map<String, JobState> finalStateOf(List<Seen<JobStatus>> statuses) {
        Map<String, JobState> out = new TreeMap<>();
        for (Seen<JobStatus> s : statuses) {
            if (FINAL.contains(s.value().getState())) {
                out.putIfAbsent(s.value().getJobId(), s.value().getState());
            }
        }
        return out;
    }

    /** A job whose attained service went down from one status to the next (statuses of a job are in order). */
    public static List<String> attainedDecreases(List<Seen<JobStatus>> statuses) {
        List<String> out = new ArrayList<>();
        byJob(statuses).forEach((job, list) -> {
            for (int i = 1; i < list.size(); i++) {
                double before = list.get(i - 1).getAttainedGpuSeconds();
                double after = list.get(i).getAttainedGpuSeconds();
                if (after < before - 1e-6) {
                    out.add(job + " attained service " + before + " -> " + after + " (" + list.get(i - 1).getState()
                            + " -> " + list.get(i).getState() + ")");
                }
            }
        });
        return out;
    }

    private static Map<String, List<JobStatus>> byJob(List<Seen<JobStatus>> statuses) {
        Map<String, List<JobStatus>> byJob = new LinkedHashMap<>();
        statuses.stream().sorted(Comparator.comparingInt((Seen<JobStatus> s) -> s.partition())
                        .thenComparingLong(Seen::offset))
                .forEach(s -> byJob.computeIfAbsent(s.value().getJobId(), k -> new ArrayList<>()).add(s.value()));
        return byJob;
    }

    private static String key(String job, int attempt, String node) {
        return job + "#" + attempt + "@" + node;
    }
}
