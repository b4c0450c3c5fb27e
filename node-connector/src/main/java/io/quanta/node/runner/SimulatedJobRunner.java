package io.quanta.node.runner;

import io.quanta.node.gpu.SimulatedGpuProbe;
import io.quanta.node.model.JobPlacementView;
import io.quanta.node.model.ThroughputModel;
import io.quanta.schemas.GpuRef;
import io.quanta.schemas.ModelProfile;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Simulated GPUs of one node, on virtual time: nothing happens until {@link #advanceTo(Instant)} is called, so a
 * discrete-event simulator drives it deterministically (ask {@link #nextEventTime()}, advance, repeat); the
 * {@link WallClockSimulatedRunner} drives it on real time for live use.
 * <p>
 * A job's total work is its {@code expectedDurationSeconds} at full speed. It progresses at the speed the
 * {@link ThroughputModel} gives for its placement and the jobs packed on the same GPUs, recomputed whenever a job
 * starts or ends on this node. A resume (START with a {@link SimulatedCheckpoint} reference) first spends the resume
 * cost without progress; a suspend stops progress at once and releases the GPUs after the suspend cost, reporting a
 * checkpoint of the work done. Kill stops at once. Events at the same instant are reported in attempt order.
 * <p>
 * {@code timeCompression} divides every duration (work and switch costs): 600 runs a 10-minute job in one second.
 * Thread-safe; listeners are called without the runner's lock held.
 */
public final class SimulatedJobRunner implements JobRunner {

    private final String nodeId;
    private final ThroughputModel model;
    private final Function<String, String> rackOfNode;
    private final double timeCompression;
    private final Map<AttemptId, SimJob> jobs = new TreeMap<>();
    private Instant now;

    /**
     * @param nodeId this node (its local GPUs are {@code GpuRef(nodeId, index)})
     * @param model the throughput model
     * @param rackOfNode rack of any node id of a gang's placement
     * @param timeCompression factor by which durations are compressed, {@code > 0} (1 = real durations)
     * @param start the virtual time to start at
     */
    public SimulatedJobRunner(String nodeId, ThroughputModel model, Function<String, String> rackOfNode,
                              double timeCompression, Instant start) {
        this.nodeId = Objects.requireNonNull(nodeId, "nodeId");
        this.model = Objects.requireNonNull(model, "model");
        this.rackOfNode = Objects.requireNonNull(rackOfNode, "rackOfNode");
        if (!(timeCompression > 0) || Double.isInfinite(timeCompression)) {
            throw new IllegalArgumentException("timeCompression must be a positive number, got " + timeCompression);
        }
        this.timeCompression = timeCompression;
        this.now = Objects.requireNonNull(start, "start");
    }

    /** A runner for one node with racks unknown (every node in the same rack) and real durations. */
    public SimulatedJobRunner(String nodeId, ThroughputModel model, Instant start) {
        this(nodeId, model, node -> "default", 1.0, start);
    }

    /** The current virtual time. */
    public synchronized Instant now() {
        return now;
    }

    /** When the next event (completion, end of a resume, end of a suspend) is due, if anything runs. */
    public synchronized Optional<Instant> nextEventTime() {
        return jobs.values().stream().map(j -> j.eventAt).filter(Objects::nonNull).min(Instant::compareTo);
    }

    /**
     * Moves virtual time forward to {@code target}, reporting every event due until then (inclusive) in time order.
     *
     * @throws IllegalArgumentException if {@code target} is before {@link #now()}
     */
    public void advanceTo(Instant target) {
        advance(target, true);
    }

    /** Like {@link #advanceTo(Instant)}, but a target before {@link #now()} just reports what is due now. */
    public void catchUpTo(Instant target) {
        advance(target, false);
    }

    private void advance(Instant requested, boolean strict) {
        List<Delivery> out = new ArrayList<>();
        synchronized (this) {
            if (strict && requested.isBefore(now)) {
                throw new IllegalArgumentException("cannot go back in time from " + now + " to " + requested);
            }
            Instant target = requested.isBefore(now) ? now : requested;
            while (true) {
                Optional<Instant> next = nextEventTime().filter(t -> !t.isAfter(target));
                Instant step = next.orElse(target);
                progressTo(step);
                if (next.isEmpty()) {
                    break;
                }
                fireDue(out);
                recomputeSpeeds();
            }
        }
        deliver(out);
    }

    @Override
    public void start(AttemptLaunch launch, Listener listener) {
        List<Delivery> out = new ArrayList<>();
        synchronized (this) {
            AttemptId id = launch.id();
            if (jobs.containsKey(id)) {
                return;
            }
            if (launch.expectedDurationSeconds().isEmpty()) {
                out.add(new Delivery(listener, new RunnerEvent.Failed(id, now, OptionalInt.empty(),
                        "the simulated backend needs expectedDurationSeconds in the START command of " + id)));
            } else {
                SimJob job = new SimJob(launch, listener);
                Duration resume = launch.checkpointRef().isPresent() ? compress(model.resumeCost(launch.profile()))
                        : Duration.ZERO;
                job.phase = resume.isZero() ? Phase.RUNNING : Phase.RESUMING;
                job.phaseEnd = resume.isZero() ? null : ceilMillis(now.plus(resume));
                jobs.put(id, job);
                out.add(new Delivery(listener, new RunnerEvent.Started(id, now)));
                recomputeSpeeds();
            }
        }
        deliver(out);
    }

    @Override
    public void suspend(AttemptId id) {
        List<Delivery> out = new ArrayList<>();
        synchronized (this) {
            SimJob job = jobs.get(id);
            if (job == null || job.phase == Phase.SUSPENDING) {
                return;
            }
            job.phase = Phase.SUSPENDING;
            job.phaseEnd = ceilMillis(now.plus(compress(model.suspendCost(job.launch.profile()))));
            job.eventAt = job.phaseEnd;
            if (!job.phaseEnd.isAfter(now)) {
                fireDue(out);
            }
            recomputeSpeeds();
        }
        deliver(out);
    }

    @Override
    public void kill(AttemptId id) {
        List<Delivery> out = new ArrayList<>();
        synchronized (this) {
            SimJob job = jobs.remove(id);
            if (job == null) {
                return;
            }
            out.add(new Delivery(job.listener, new RunnerEvent.Failed(id, now, OptionalInt.empty(),
                    id + " killed on request")));
            recomputeSpeeds();
        }
        deliver(out);
    }

    @Override
    public void recover(AttemptId id, boolean suspending, Listener listener) {
        Instant at;
        synchronized (this) {
            at = now;
        }
        listener.onEvent(new RunnerEvent.Lost(id, at, "simulated attempts do not survive a connector restart"));
    }

    @Override
    public synchronized List<AttemptProgress> progress() {
        List<AttemptProgress> result = new ArrayList<>();
        for (SimJob job : jobs.values()) {
            double minibatchSeconds = model.minibatchTime(job.launch.profile()).toNanos() / 1e9;
            int memory = job.launch.profile().getGpuMemoryMiB();
            result.add(new AttemptProgress(job.launch.id(), (long) Math.floor(job.workDone / minibatchSeconds),
                    memory > 0 ? OptionalInt.of(memory) : OptionalInt.empty()));
        }
        return result;
    }

    /** Current speed (fraction of full speed) of an attempt present on this node, for tests and reports. */
    public synchronized OptionalDouble speedOf(AttemptId id) {
        SimJob job = jobs.get(id);
        return job == null ? OptionalDouble.empty() : OptionalDouble.of(job.speed);
    }

    /** Usage of this node's GPUs by the attempts present: memory of their profiles, 100% when one runs. */
    public synchronized Map<Integer, SimulatedGpuProbe.Usage> gpuUsage() {
        Map<Integer, SimulatedGpuProbe.Usage> usage = new HashMap<>();
        for (SimJob job : jobs.values()) {
            int memory = Math.max(0, job.launch.profile().getGpuMemoryMiB());
            int util = job.phase == Phase.RUNNING ? 100 : 0;
            for (int gpu : job.launch.gpuIndices()) {
                SimulatedGpuProbe.Usage u = usage.getOrDefault(gpu, new SimulatedGpuProbe.Usage(0, 0));
                usage.put(gpu, new SimulatedGpuProbe.Usage(u.memoryUsedMiB() + memory,
                        Math.max(u.utilizationPercent(), util)));
            }
        }
        return usage;
    }

    @Override
    public void close() {
        // nothing to release: no threads, no processes
    }

    private void progressTo(Instant t) {
        double seconds = Duration.between(now, t).toNanos() / 1e9;
        if (seconds > 0) {
            for (SimJob job : jobs.values()) {
                if (job.phase == Phase.RUNNING) {
                    job.workDone = Math.min(job.totalWork, job.workDone + seconds * job.speed * timeCompression);
                }
            }
        }
        now = t;
    }

    private void fireDue(List<Delivery> out) {
        for (SimJob job : new ArrayList<>(jobs.values())) {
            if (job.eventAt == null || job.eventAt.isAfter(now)) {
                continue;
            }
            AttemptId id = job.launch.id();
            switch (job.phase) {
                case RESUMING -> {
                    job.phase = Phase.RUNNING;
                    job.phaseEnd = null;
                }
                case RUNNING -> {
                    jobs.remove(id);
                    out.add(new Delivery(job.listener, new RunnerEvent.Completed(id, now)));
                }
                case SUSPENDING -> {
                    jobs.remove(id);
                    long workMillis = (long) Math.floor(job.workDone * 1000.0);
                    out.add(new Delivery(job.listener, new RunnerEvent.Suspended(id, now,
                            SimulatedCheckpoint.reference(id, workMillis))));
                }
                default -> throw new IllegalStateException("unknown phase " + job.phase);
            }
        }
    }

    private void recomputeSpeeds() {
        for (SimJob job : jobs.values()) {
            job.speed = model.speed(view(job));
            job.eventAt = switch (job.phase) {
                case RESUMING, SUSPENDING -> job.phaseEnd;
                case RUNNING -> completionTime(job);
            };
        }
    }

    private Instant completionTime(SimJob job) {
        double remaining = Math.max(0.0, job.totalWork - job.workDone);
        if (remaining <= 1e-9) {
            return now;
        }
        double seconds = remaining / (job.speed * timeCompression);
        return ceilMillis(now.plusNanos((long) Math.ceil(seconds * 1e9)));
    }

    private JobPlacementView view(SimJob job) {
        if (job.alone == null) {
            List<GpuRef> placement = job.launch.placement().isEmpty()
                    ? job.launch.gpuIndices().stream().map(i -> new GpuRef(nodeId, i)).toList()
                    : job.launch.placement();
            job.alone = JobPlacementView.of(job.launch.profile(), placement, rackOfNode, List.of());
        }
        List<ModelProfile> partners = null;
        for (SimJob other : jobs.values()) {
            if (other != job && sharesGpu(other, job)) {
                if (partners == null) {
                    partners = new ArrayList<>();
                }
                partners.add(other.launch.profile());
            }
        }
        JobPlacementView alone = job.alone;
        return partners == null ? alone
                : new JobPlacementView(alone.profile(), alone.gpus(), alone.servers(), alone.racks(), partners);
    }

    private static boolean sharesGpu(SimJob a, SimJob b) {
        for (Integer index : a.launch.gpuIndices()) {
            if (b.launch.gpuIndices().contains(index)) {
                return true;
            }
        }
        return false;
    }

    private Duration compress(Duration d) {
        return Duration.ofNanos((long) Math.ceil(d.toNanos() / timeCompression));
    }

    private static Instant ceilMillis(Instant t) {
        Instant floor = t.truncatedTo(ChronoUnit.MILLIS);
        return floor.equals(t) ? t : floor.plusMillis(1);
    }

    private static void deliver(List<Delivery> out) {
        out.forEach(d -> d.listener.onEvent(d.event));
    }

    private enum Phase { RESUMING, RUNNING, SUSPENDING }

    private record Delivery(Listener listener, RunnerEvent event) {
    }

    /** One simulated attempt; guarded by the runner's lock. */
    private static final class SimJob {
        final AttemptLaunch launch;
        final Listener listener;
        final double totalWork;
        double workDone;
        double speed = 1.0;
        Phase phase;
        Instant phaseEnd;
        Instant eventAt;
        /** The view of the job on its placement without partners (the launch does not change). */
        JobPlacementView alone;

        SimJob(AttemptLaunch launch, Listener listener) {
            this.launch = launch;
            this.listener = listener;
            this.totalWork = launch.expectedDurationSeconds().orElseThrow();
            double resumed = launch.checkpointRef().flatMap(SimulatedCheckpoint::workMillis).orElse(0L) / 1000.0;
            this.workDone = Math.min(totalWork, resumed);
        }
    }
}
