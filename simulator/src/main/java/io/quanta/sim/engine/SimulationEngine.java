package io.quanta.sim.engine;

import io.quanta.node.model.ThroughputModel;
import io.quanta.node.runner.AttemptId;
import io.quanta.node.runner.AttemptProgress;
import io.quanta.schemas.GpuRef;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobSubmitted;
import io.quanta.schemas.JobTelemetry;
import io.quanta.schemas.ModelProfile;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeCommandType;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.cluster.SimulatedFleet;
import io.quanta.sim.cluster.SimulatedNode;
import io.quanta.sim.cluster.VirtualClock;
import io.quanta.sim.metrics.InputCounts;
import io.quanta.sim.metrics.JobLedger;
import io.quanta.sim.metrics.RunStats;
import io.quanta.sim.metrics.Timeline;
import io.quanta.sim.metrics.TimelineSample;
import io.quanta.sim.profile.ModelKind;
import io.quanta.sim.profile.ProfileAssigner;
import io.quanta.sim.trace.Trace;
import io.quanta.sim.trace.TraceJob;
import io.quanta.topics.serde.AvroTrust;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The discrete-event loop of a trace-driven simulation on a virtual clock. Virtual time jumps to the next instant at
 * which something can happen: the next arrival, the next event of a simulated node (completion, end of a suspend or
 * resume), the scheduler's next wake-up, or the next heartbeat the liveness horizon needs. At each instant it:
 * <ol>
 *   <li>advances the nodes with an event due and gives their job events to the scheduler;</li>
 *   <li>submits the jobs arriving now (with {@code expectedDurationSeconds} = the trace duration and a profile from
 *       the {@link ProfileAssigner});</li>
 *   <li>sends every node's heartbeat when the heartbeat interval has passed, or one heartbeat when nothing else moves
 *       the scheduler's stream time to a wake-up;</li>
 *   <li>settles: applies the scheduler's commands to the nodes' own command handlers at the same instant and gives the
 *       resulting events (STARTED, SUSPENDED at once when switches are free) back, until neither side has more to
 *       say. Telemetry is sent only when an attempt's throughput differs from what its lead node last reported, or,
 *       with a telemetry window ({@link EngineSettings#telemetryWindow()}), at the ends of the windows after a change
 *       ({@link TelemetryWindows}), the connector's cadence.</li>
 * </ol>
 * Deterministic: the same trace, cluster, mode, seed and scheduler give the same records in the same order.
 */
public final class SimulationEngine {

    private static final Logger LOG = LoggerFactory.getLogger(SimulationEngine.class);
    private static final int MAX_SETTLE_ROUNDS = 100_000;

    private final Trace trace;
    private final ClusterShape shape;
    private final ProfileAssigner profiles;
    private final ThroughputModel throughput;
    private final ScheduledCluster scheduler;
    private final EngineSettings settings;
    private final ProgressListener progress;
    private final Consumer<SchedulingDecision> decisionLog;
    private final LongSupplier nanoTime;

    private final VirtualClock clock;
    private final SimulatedFleet fleet;
    private final JobLedger ledger;
    private final Timeline timeline;
    private final Map<String, ModelKind> kinds = new HashMap<>();
    private final Map<AttemptId, String> leadNode = new HashMap<>();
    private final Map<AttemptId, Reported> reported = new HashMap<>();
    /** The connector's telemetry windows, or null when every change is reported at once. */
    private final TelemetryWindows windows;

    private Instant now;
    private Instant lastIntegrated;
    private double allocatedGpuSeconds;
    private int nextArrival;
    private Instant nextHeartbeat;
    private long steps;
    private int idleWakeUps;
    private long submissions;
    private long events;
    private long telemetrySent;
    private long heartbeats;
    private long ticks;

    private record Reported(double speed, Instant at) {
    }

    /**
     * @param trace the jobs
     * @param shape the cluster
     * @param mode the fidelity mode of the simulated nodes
     * @param profiles the rule giving jobs a model
     * @param scheduler the scheduler (the real topology)
     * @param settings loop knobs
     * @param progress told after each step
     * @param nanoTime wall-clock source, only to measure the run's duration
     */
    public SimulationEngine(Trace trace, ClusterShape shape, FidelityMode mode, ProfileAssigner profiles,
                            ScheduledCluster scheduler, EngineSettings settings, ProgressListener progress,
                            LongSupplier nanoTime) {
        this(trace, shape, mode, profiles, scheduler, settings, progress, nanoTime, decision -> { });
    }

    /** As above, and every decision the scheduler writes is also handed to {@code decisionLog}, in output order. */
    public SimulationEngine(Trace trace, ClusterShape shape, FidelityMode mode, ProfileAssigner profiles,
                            ScheduledCluster scheduler, EngineSettings settings, ProgressListener progress,
                            LongSupplier nanoTime, Consumer<SchedulingDecision> decisionLog) {
        AvroTrust.trustQuantaSchemas();
        this.decisionLog = Objects.requireNonNull(decisionLog, "decisionLog");
        this.trace = Objects.requireNonNull(trace, "trace");
        this.shape = Objects.requireNonNull(shape, "shape");
        this.profiles = Objects.requireNonNull(profiles, "profiles");
        this.throughput = mode.throughputModel();
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.progress = Objects.requireNonNull(progress, "progress");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.clock = new VirtualClock(settings.origin());
        this.fleet = new SimulatedFleet(shape, settings.cellId(), settings.gpuModel(), throughput, clock);
        this.ledger = new JobLedger(settings.origin(), shape.gpusPerServer());
        this.timeline = new Timeline(timelineStep(trace, settings.timelineSamples()), settings.timelineSamples());
        this.now = settings.origin();
        this.lastIntegrated = now;
        this.windows = settings.telemetryWindow().isZero() ? null
                : new TelemetryWindows(settings.origin(), settings.telemetryWindow());
    }

    /** Runs the trace to the end (or until nothing more can happen) and returns what happened. */
    public SimulationRun run(String label) {
        long started = nanoTime.getAsLong();
        Instant horizon = at(trace.lastSubmitSeconds()).plusSeconds((long) Math.ceil(serialWorkSeconds()))
                .plus(settings.extraHorizon());
        heartbeatAll(now);
        nextHeartbeat = now.plus(settings.heartbeatInterval());
        settle();
        String stop = "all jobs done";
        while (!allDone()) {
            Optional<Instant> next = nextInstant();
            if (next.isEmpty()) {
                stop = "stalled: nothing can happen any more";
                break;
            }
            if (next.get().isAfter(horizon)) {
                stop = "horizon reached at " + seconds(horizon) + " s";
                break;
            }
            if (idleWakeUps >= settings.maxIdleWakeUps()) {
                stop = "stalled: " + idleWakeUps + " wake-ups in a row changed nothing";
                break;
            }
            step(next.get());
            progress.onProgress(ledger.terminalJobs(), trace.size(), seconds(now), false);
        }
        integrateTo(now);
        timeline.advanceTo(seconds(now), this::sample);
        if (!allDone()) {
            LOG.warn("simulation {} stopped with {} of {} jobs not done: {}", label,
                    trace.size() - ledger.terminalJobs(), trace.size(), stop);
        }
        double wall = (nanoTime.getAsLong() - started) / 1e9;
        progress.onProgress(ledger.terminalJobs(), trace.size(), seconds(now), true);
        RunStats stats = new RunStats(shape.totalGpus(), allocatedGpuSeconds, seconds(now), wall, ledger.decisions(),
                scheduler.inputRecords(), steps, ledger.deadLetterCount(), stop,
                new InputCounts(submissions, events, telemetrySent, heartbeats, ticks));
        return new SimulationRun(label, ledger.outcomes(), timeline.samples(), stats, ledger.decisionCounts());
    }

    private boolean allDone() {
        return nextArrival >= trace.size() && ledger.terminalJobs() >= trace.size();
    }

    private Optional<Instant> nextInstant() {
        Instant best = null;
        if (nextArrival < trace.size()) {
            best = at(trace.jobs().get(nextArrival).submitSeconds());
        }
        best = earliest(best, fleet.nextEventTime().orElse(null));
        Optional<Instant> wake = scheduler.nextWakeUp().filter(w -> w.isAfter(now));
        best = earliest(best, wake.orElse(null));
        if (windows != null) {
            best = earliest(best, windows.nextDue().orElse(null));
        }
        boolean somethingPending = best != null;
        if (somethingPending) {
            best = earliest(best, nextHeartbeat);
        }
        return Optional.ofNullable(best);
    }

    private void step(Instant t) {
        timeline.advanceTo(seconds(t), this::sample);
        integrateTo(t);
        now = t;
        clock.set(t);
        steps++;
        fleet.advanceDueTo(t);
        // records that move the cell's stream time, and telemetry, which does not
        int timed = forwardEvents();
        int telemetry = sendTelemetry() + sendWindows();
        while (nextArrival < trace.size() && !at(trace.jobs().get(nextArrival).submitSeconds()).isAfter(t)) {
            submit(trace.jobs().get(nextArrival++));
            timed++;
        }
        if (!nextHeartbeat.isAfter(t)) {
            heartbeatAll(t);
            nextHeartbeat = t.plus(settings.heartbeatInterval());
            timed++;
        }
        int moved = timed + telemetry;
        // a tick stands in for the heartbeat a deployment's nodes would send next: when nothing else came, and when
        // only telemetry came and the cell's wake-up is due (a throughput it changed marks the cell for a pass at its
        // next tick, which lies before now when no record moved the cell's time since)
        if (moved == 0 || timed == 0 && scheduler.nextWakeUp().filter(w -> !w.isAfter(t)).isPresent()) {
            SimulatedNode first = fleet.nodes().iterator().next();
            scheduler.heartbeat(first.heartbeat(t));
            ticks++;
        }
        int commands = settle();
        boolean quiet = moved == 0 && commands == 0 && ledger.runningJobs() == 0 && nextArrival >= trace.size();
        idleWakeUps = quiet ? idleWakeUps + 1 : 0;
    }

    /** Exchanges records between the scheduler and the nodes at {@code now} until both are quiet. */
    private int settle() {
        int commands = 0;
        for (int round = 0; round < MAX_SETTLE_ROUNDS; round++) {
            SchedulerOutput out = scheduler.drain();
            out.decisions().forEach(ledger::decision);
            out.decisions().forEach(decisionLog);
            out.statuses().forEach(ledger::status);
            ledger.deadLetters(out.deadLetters());
            for (NodeCommand command : out.commands()) {
                ledger.command(command);
                remember(command);
                if (!fleet.apply(command, now)) {
                    LOG.warn("command {} for unknown node {} dropped", command.getCommandId(), command.getNodeId());
                }
            }
            commands += out.commands().size();
            int fed = forwardEvents() + sendTelemetry();
            if (out.isEmpty() && fed == 0) {
                return commands;
            }
        }
        throw new IllegalStateException("the scheduler and the nodes did not settle at " + now + " after "
                + MAX_SETTLE_ROUNDS + " rounds");
    }

    private int forwardEvents() {
        List<JobEvent> drained = fleet.drainEvents();
        events += drained.size();
        for (JobEvent event : drained) {
            ledger.event(event);
            if (event.getType() != io.quanta.schemas.JobEventType.STARTED
                    && event.getType() != io.quanta.schemas.JobEventType.COMMAND_IGNORED) {
                AttemptId id = new AttemptId(event.getJobId(), event.getAttempt());
                if (event.getNodeId().equals(leadNode.get(id))) {
                    leadNode.remove(id);
                    reported.remove(id);
                    if (windows != null) {
                        windows.forget(id);
                    }
                }
            }
            scheduler.event(event);
        }
        return drained.size();
    }

    private void remember(NodeCommand command) {
        if (command.getType() != NodeCommandType.START) {
            return;
        }
        String lead = command.getPlacement().stream().map(GpuRef::getNodeId).min(String::compareTo)
                .orElse(command.getNodeId());
        leadNode.put(new AttemptId(command.getJobId(), command.getAttempt()), lead);
    }

    /** Telemetry from the lead node of every attempt whose throughput changed on the nodes touched since last time. */
    private int sendTelemetry() {
        int sent = 0;
        for (String nodeId : fleet.drainTouched()) {
            SimulatedNode node = fleet.node(nodeId).orElseThrow();
            for (AttemptProgress p : node.progress()) {
                if (!nodeId.equals(leadNode.get(p.attempt()))) {
                    continue;
                }
                double speed = node.speedOf(p.attempt()).orElse(0.0);
                if (windows != null) {
                    windows.observe(p.attempt(), speed, now);
                    continue;
                }
                Reported last = reported.get(p.attempt());
                if (last != null && Math.abs(last.speed() - speed) < 1e-9) {
                    continue;
                }
                report(nodeId, p, speed, last == null ? 0 : Duration.between(last.at(), now).toMillis());
                reported.put(p.attempt(), new Reported(speed, now));
                sent++;
            }
        }
        return sent;
    }

    /**
     * The reports of the telemetry windows that end now; returns how many windows were due, sent or not, so that an
     * instant that is only the end of a window moves no stream time with a tick.
     */
    private int sendWindows() {
        if (windows == null) {
            return 0;
        }
        int due = windows.dueCount(now);
        for (TelemetryWindows.Report r : windows.reportsDue(now)) {
            String nodeId = leadNode.get(r.attempt());
            SimulatedNode node = nodeId == null ? null : fleet.node(nodeId).orElse(null);
            if (node == null) {
                continue;
            }
            node.progress().stream().filter(p -> p.attempt().equals(r.attempt())).findFirst()
                    .ifPresent(p -> report(nodeId, p, r.speed(), r.window().toMillis()));
        }
        return due;
    }

    private void report(String nodeId, AttemptProgress p, double speed, long windowMillis) {
        ModelKind kind = kinds.get(p.attempt().jobId());
        ModelProfile profile = kind == null ? ModelKind.RESNET50.profile() : kind.profile();
        double minibatchSeconds = throughput.minibatchTime(profile).toNanos() / 1e9;
        scheduler.telemetry(JobTelemetry.newBuilder()
                .setJobId(p.attempt().jobId())
                .setAttempt(p.attempt().attempt())
                .setNodeId(nodeId)
                .setMinibatchesDone(p.minibatchesDone())
                .setMinibatchesPerSecond(speed / minibatchSeconds)
                .setWindowMillis(windowMillis)
                .setGpuMemoryUsedMiB(p.gpuMemoryUsedMiB().isPresent() ? p.gpuMemoryUsedMiB().getAsInt() : null)
                .setReportedAt(now)
                .build());
        telemetrySent++;
    }

    private void submit(TraceJob job) {
        submissions++;
        ModelKind kind = profiles.kindOf(job.jobId());
        kinds.put(job.jobId(), kind);
        ledger.submitted(job, kind.modelName());
        scheduler.submit(JobSubmitted.newBuilder()
                .setJobId(job.jobId())
                .setTenant(job.tenant())
                .setNumGpus(job.numGpus())
                .setProfile(kind.profile())
                .setExpectedDurationSeconds(job.durationSeconds())
                .setSubmittedAt(now)
                .build(), now);
    }

    private void heartbeatAll(Instant t) {
        for (SimulatedNode node : fleet.nodes()) {
            scheduler.heartbeat(node.heartbeat(t));
            heartbeats++;
        }
    }

    private TimelineSample sample(double atSeconds) {
        double useful = 0;
        for (Map.Entry<JobLedger.Part, Integer> e : ledger.activeParts().entrySet()) {
            JobLedger.Part part = e.getKey();
            double speed = fleet.node(part.nodeId())
                    .flatMap(n -> {
                        var s = n.speedOf(new AttemptId(part.jobId(), part.attempt()));
                        return s.isPresent() ? Optional.of(s.getAsDouble()) : Optional.empty();
                    }).orElse(0.0);
            useful += e.getValue() * speed;
        }
        return new TimelineSample(atSeconds, ledger.allocatedGpus(), useful, ledger.runningJobs(),
                ledger.queuedJobs());
    }

    private void integrateTo(Instant t) {
        double dt = Duration.between(lastIntegrated, t).toMillis() / 1000.0;
        if (dt > 0) {
            allocatedGpuSeconds += dt * ledger.allocatedGpus();
            lastIntegrated = t;
        }
    }

    private double serialWorkSeconds() {
        return trace.jobs().stream().mapToDouble(TraceJob::durationSeconds).sum();
    }

    private Instant at(long traceSeconds) {
        return settings.origin().plusSeconds(traceSeconds);
    }

    private double seconds(Instant t) {
        return Duration.between(settings.origin(), t).toMillis() / 1000.0;
    }

    private static Instant earliest(Instant a, Instant b) {
        if (a == null) {
            return b;
        }
        return b == null || a.isBefore(b) ? a : b;
    }

    private static double timelineStep(Trace trace, int samples) {
        double end = trace.jobs().stream().mapToDouble(j -> j.submitSeconds() + j.durationSeconds()).max()
                .orElse(60);
        return Math.max(60.0, end / samples);
    }
}
