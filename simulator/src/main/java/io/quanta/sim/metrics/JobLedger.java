package io.quanta.sim.metrics;

import io.quanta.schemas.DecisionType;
import io.quanta.schemas.GpuRef;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeCommandType;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.sim.trace.TraceJob;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * The simulator's own book of what happened to every job and GPU, kept from the records that cross the boundary
 * between the scheduler and the nodes (START commands, job events, decisions, statuses), never from the scheduler's
 * internals. It gives the per-job outcomes, the counts of the summary and the instantaneous state for the timeline.
 * <ul>
 *   <li>first start: the first STARTED event of any attempt; finish: the scheduler's FINISHED status (its
 *       {@code finishedAt}), or its FINISH decision when no status says so;</li>
 *   <li>preemptions and migrations: SUSPEND and MIGRATE decisions naming the job;</li>
 *   <li>placement spread: distinct servers of the widest START placement of the job;</li>
 *   <li>running time: the time during which at least one node had an attempt of the job between its STARTED event
 *       and its end event (SUSPENDED, COMPLETED, FAILED, LOST), at most until the job finished;</li>
 *   <li>allocated GPUs: GPUs with at least one attempt between STARTED and its end event on that node.</li>
 * </ul>
 */
public final class JobLedger {

    private final Instant origin;
    private final Map<String, Entry> entries = new LinkedHashMap<>();
    private final Map<Part, List<Integer>> launched = new HashMap<>();
    private final Map<Part, List<Integer>> active = new TreeMap<>();
    private final Map<String, int[]> occupancy = new HashMap<>();
    private final Map<DecisionType, Long> decisionCounts = new EnumMap<>(DecisionType.class);
    private final int gpusPerServer;
    private int allocatedGpus;
    private int runningJobs;
    private int submitted;
    private int terminal;
    private int finished;
    private long decisions;
    private long deadLetters;

    /** One attempt's share of a gang on one node. */
    public record Part(String nodeId, String jobId, int attempt) implements Comparable<Part> {
        @Override
        public int compareTo(Part o) {
            int c = nodeId.compareTo(o.nodeId);
            if (c != 0) {
                return c;
            }
            c = jobId.compareTo(o.jobId);
            return c != 0 ? c : Integer.compare(attempt, o.attempt);
        }
    }

    private static final class Entry {
        final TraceJob job;
        final String model;
        Instant firstStart;
        Instant finish;
        int preemptions;
        int migrations;
        int serversUsed;
        int activeParts;
        Instant runningSince;
        long runningMillis;
        String finalState = "NOT_SUBMITTED";
        boolean terminal;

        Entry(TraceJob job, String model) {
            this.job = job;
            this.model = model;
        }
    }

    /**
     * @param origin the instant of the trace's time 0
     * @param gpusPerServer GPUs of each node
     */
    public JobLedger(Instant origin, int gpusPerServer) {
        this.origin = Objects.requireNonNull(origin, "origin");
        this.gpusPerServer = gpusPerServer;
    }

    /** Registers a job about to be submitted. */
    public void submitted(TraceJob job, String model) {
        Entry entry = new Entry(job, model);
        entry.finalState = JobState.QUEUED.name();
        if (entries.putIfAbsent(job.jobId(), entry) != null) {
            throw new IllegalArgumentException("job " + job.jobId() + " submitted twice");
        }
        submitted++;
    }

    /** A command the scheduler sent to a node (START placements are remembered). */
    public void command(NodeCommand command) {
        if (command.getType() != NodeCommandType.START) {
            return;
        }
        launched.put(new Part(command.getNodeId(), command.getJobId(), command.getAttempt()),
                List.copyOf(command.getGpuIndices()));
        Entry entry = entries.get(command.getJobId());
        if (entry != null) {
            int servers = command.getPlacement().isEmpty() ? 1
                    : (int) command.getPlacement().stream().map(GpuRef::getNodeId).distinct().count();
            entry.serversUsed = Math.max(entry.serversUsed, servers);
        }
    }

    /** An event a node published. */
    public void event(JobEvent event) {
        Part part = new Part(event.getNodeId(), event.getJobId(), event.getAttempt());
        Entry entry = entries.get(event.getJobId());
        switch (event.getType()) {
            case STARTED -> {
                List<Integer> gpus = launched.getOrDefault(part, List.of());
                if (active.put(part, gpus) == null) {
                    occupy(part.nodeId(), gpus, +1);
                    if (entry != null) {
                        if (entry.firstStart == null) {
                            entry.firstStart = event.getAt();
                        }
                        if (entry.activeParts++ == 0) {
                            runningJobs++;
                            // a start reported after the job finished (a stale or replayed attempt) is not its
                            // running time: that ended at the finish
                            entry.runningSince = entry.finish == null ? event.getAt() : null;
                        }
                    }
                }
            }
            case SUSPENDED, COMPLETED, FAILED, LOST -> {
                List<Integer> gpus = active.remove(part);
                launched.remove(part);
                if (gpus != null) {
                    occupy(part.nodeId(), gpus, -1);
                    if (entry != null && --entry.activeParts == 0) {
                        runningJobs--;
                        stopRunning(entry, event.getAt());
                    }
                }
            }
            case COMMAND_IGNORED -> {
                // the scheduler deals with it; nothing changes on the node
            }
        }
    }

    /** A decision the scheduler recorded. */
    public void decision(SchedulingDecision decision) {
        decisions++;
        decisionCounts.merge(decision.getType(), 1L, Long::sum);
        Entry entry = decision.getJobId() == null ? null : entries.get(decision.getJobId());
        if (entry == null) {
            return;
        }
        switch (decision.getType()) {
            case SUSPEND -> entry.preemptions++;
            case MIGRATE -> entry.migrations++;
            case FINISH -> {
                if (entry.finish == null) {
                    finish(entry, decision.getStreamTime());
                }
            }
            default -> {
                // other decisions do not change the outcome
            }
        }
    }

    /** A job status the scheduler published. */
    public void status(JobStatus status) {
        Entry entry = entries.get(status.getJobId());
        if (entry == null) {
            return;
        }
        entry.finalState = status.getState().name();
        switch (status.getState()) {
            case FINISHED -> {
                Instant at = status.getFinishedAt() != null ? status.getFinishedAt() : status.getUpdatedAt();
                if (entry.finish == null || at.isBefore(entry.finish)) {
                    finish(entry, at);
                }
            }
            case FAILED, REJECTED, CANCELLED -> markTerminal(entry);
            default -> {
                // not terminal
            }
        }
    }

    /** Records written to the dead-letter topic. */
    public void deadLetters(int n) {
        deadLetters += n;
    }

    /** Jobs submitted so far. */
    public int submittedJobs() {
        return submitted;
    }

    /** Jobs finished, failed, rejected or cancelled. */
    public int terminalJobs() {
        return terminal;
    }

    /** Jobs that finished. */
    public int finishedJobs() {
        return finished;
    }

    /** GPUs currently held by at least one attempt. */
    public int allocatedGpus() {
        return allocatedGpus;
    }

    /** Jobs currently holding GPUs. */
    public int runningJobs() {
        return runningJobs;
    }

    /** Jobs submitted, not terminal and not holding GPUs. */
    public int queuedJobs() {
        return Math.max(0, submitted - terminal - runningJobs);
    }

    /** The attempts' shares currently holding GPUs, with their GPU counts, in (node, job, attempt) order. */
    public Map<Part, Integer> activeParts() {
        Map<Part, Integer> out = new LinkedHashMap<>();
        active.forEach((p, g) -> out.put(p, g.size()));
        return out;
    }

    /** Decisions recorded, in total. */
    public long decisions() {
        return decisions;
    }

    /** Decisions recorded, by type. */
    public Map<DecisionType, Long> decisionCounts() {
        return Map.copyOf(decisionCounts);
    }

    /** Dead-letter records seen. */
    public long deadLetterCount() {
        return deadLetters;
    }

    /** The outcome of every job registered, in submission order. */
    public List<JobOutcome> outcomes() {
        List<JobOutcome> out = new ArrayList<>(entries.size());
        for (Entry e : entries.values()) {
            out.add(new JobOutcome(e.job.jobId(), e.job.tenant(), e.model, e.job.numGpus(), e.job.durationSeconds(),
                    e.job.submitSeconds(), seconds(e.firstStart), seconds(e.finish), e.preemptions, e.migrations,
                    e.serversUsed, e.finalState, OptionalDouble.of(e.runningMillis / 1000.0)));
        }
        return out;
    }

    private OptionalDouble seconds(Instant t) {
        return t == null ? OptionalDouble.empty() : OptionalDouble.of(Duration.between(origin, t).toMillis() / 1000.0);
    }

    /** Ends the job's running interval, if one is open, at {@code at}. */
    private static void stopRunning(Entry entry, Instant at) {
        if (entry.runningSince != null) {
            entry.runningMillis += Math.max(0, Duration.between(entry.runningSince, at).toMillis());
            entry.runningSince = null;
        }
    }

    private void finish(Entry entry, Instant at) {
        if (entry.finish == null) {
            finished++;
            // a gang finishes when its first node reports it completed; the others' reports may come after the run
            // stopped (its last job finished), so the running time ends here
            stopRunning(entry, at);
        }
        entry.finish = at;
        markTerminal(entry);
    }

    private void markTerminal(Entry entry) {
        if (!entry.terminal) {
            entry.terminal = true;
            terminal++;
        }
    }

    private void occupy(String nodeId, List<Integer> gpus, int delta) {
        int[] counts = occupancy.computeIfAbsent(nodeId, k -> new int[gpusPerServer]);
        for (int gpu : gpus) {
            if (gpu < 0 || gpu >= counts.length) {
                continue;
            }
            int before = counts[gpu];
            counts[gpu] = Math.max(0, before + delta);
            if (before == 0 && counts[gpu] > 0) {
                allocatedGpus++;
            } else if (before > 0 && counts[gpu] == 0) {
                allocatedGpus--;
            }
        }
    }
}
