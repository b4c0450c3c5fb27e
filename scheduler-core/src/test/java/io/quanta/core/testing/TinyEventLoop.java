package io.quanta.core.testing;

import io.quanta.core.decision.Decision;
import io.quanta.core.decision.Decisions;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.GpuId;
import io.quanta.core.model.InterferenceMemory;
import io.quanta.core.model.Job;
import io.quanta.core.model.JobState;
import io.quanta.core.model.ModelProfile;
import io.quanta.core.model.Node;
import io.quanta.core.model.ServiceDistribution;
import io.quanta.core.policy.SchedulingPolicy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A tiny, pure event loop that plays the processor's part of the contract (see {@code io.quanta.core}
 * package-info) around a policy: arrivals, STARTED after {@code startDelay}, SUSPENDED after {@code suspendDelay},
 * completion when a job's work is done (rate 1 alone, {@code packedRate} when sharing GPUs), passes after every event
 * until a fixpoint and at the policy's wake-ups. Every pass is checked with {@link DecisionValidator}. Reference
 * for the semantics the topology implements; used by the contract and property tests.
 */
public final class TinyEventLoop {

    /** One job of a workload: needs {@code work} seconds of full-speed execution on {@code numGpus} GPUs. */
    public record JobSpec(String id, String tenant, int numGpus, double submitAt, double work, ModelProfile profile) {
    }

    /** What happened: finish time of each job, the ones left unfinished, counts of passes and decision types. */
    public record Result(Map<String, Double> finishedAt, List<String> unfinished, int passes,
                         Map<String, Integer> decisionCounts, List<String> log) {
    }

    private static final double EPS = 1e-6;

    private enum Kind { ARRIVAL, STARTED, SUSPENDED }

    private record Event(double time, long seq, Kind kind, String jobId) {
    }

    private static final class Sim {
        JobSpec spec;
        JobState state = JobState.QUEUED;
        boolean arrived;
        long seq;
        int attempt;
        int level;
        double attained;
        double executed;
        double waiting;
        double remaining;
        List<GpuId> placement = List.of();
        List<GpuId> reserved = List.of();
        List<GpuId> previous = List.of();
        TreeSet<String> sharing = new TreeSet<>();
        double baseline = Double.NaN;
        Double changedAt;
    }

    private final SchedulingPolicy policy;
    private final List<Node> nodes;
    private final double startDelay;
    private final double suspendDelay;
    private final double packedRate;
    private final Map<String, Sim> jobs = new TreeMap<>();
    private final PriorityQueue<Event> events = new PriorityQueue<>((a, b) -> a.time != b.time
            ? Double.compare(a.time, b.time) : Long.compare(a.seq, b.seq));
    private final Map<String, Double> finished = new TreeMap<>();
    private final Map<String, Integer> counts = new TreeMap<>();
    private final List<String> log = new ArrayList<>();
    private ServiceDistribution distribution;
    private InterferenceMemory memory;
    private double now;
    private double nextWake = Double.POSITIVE_INFINITY;
    private long seq;
    private int passes;

    public TinyEventLoop(SchedulingPolicy policy, List<Node> nodes, double startDelay, double suspendDelay,
                         double packedRate) {
        this.policy = policy;
        this.nodes = List.copyOf(nodes);
        this.startDelay = startDelay;
        this.suspendDelay = suspendDelay;
        this.packedRate = packedRate;
        this.distribution = policy.config().newServiceDistribution();
        this.memory = policy.config().newInterferenceMemory();
    }

    /** Runs the workload until every job is done, nothing can happen any more, or the horizon or pass limit. */
    public Result run(List<JobSpec> workload, double horizon, int maxPasses) {
        for (JobSpec spec : workload) {
            events.add(new Event(spec.submitAt(), seq++, Kind.ARRIVAL, spec.id()));
            Sim s = new Sim();
            s.spec = spec;
            s.remaining = spec.work();
            jobs.put(spec.id(), s);
        }
        while (passes < maxPasses) {
            double next = Math.min(Math.min(events.isEmpty() ? Double.POSITIVE_INFINITY : events.peek().time,
                    nextCompletion()), nextWake);
            if (Double.isInfinite(next) || next > horizon) {
                break;
            }
            advance(next - now);
            now = next;
            while (!events.isEmpty() && events.peek().time <= now + EPS) {
                handle(events.poll());
            }
            completeFinishedWork();
            if (nextWake <= now + EPS) {
                nextWake = Double.POSITIVE_INFINITY;
            }
            passesUntilFixpoint();
        }
        List<String> unfinished = jobs.values().stream()
                .filter(s -> !finished.containsKey(s.spec.id()) && s.state != JobState.REJECTED)
                .map(s -> s.spec.id()).toList();
        return new Result(finished, unfinished, passes, counts, log);
    }

    /** The current snapshot, as the processor would build it. */
    public ClusterSnapshot snapshot() {
        List<Job> list = new ArrayList<>();
        for (Sim s : jobs.values()) {
            if (!s.arrived || s.state.isTerminal()) {
                continue;
            }
            list.add(Job.builder(s.spec.id()).tenant(s.spec.tenant()).numGpus(s.spec.numGpus()).state(s.state)
                    .attempt(Math.max(1, s.attempt)).arrivalSeq(s.seq).submittedAt(at(s.spec.submitAt()))
                    .attainedGpuSeconds(s.attained).executedSeconds(s.executed).waitingSeconds(s.waiting)
                    .queueLevel(s.level).placement(s.placement).sharingWith(List.copyOf(s.sharing))
                    .throughput(s.state == JobState.RUNNING ? throughput(s) : Double.NaN)
                    .baselineThroughput(s.baseline)
                    .placementChangedAt(Optional.ofNullable(s.changedAt).map(TinyEventLoop::at))
                    .previousPlacement(s.previous).reservedGpus(s.reserved).profile(s.spec.profile())
                    .expectedDurationSeconds(OptionalDouble.of(s.spec.work())).build());
        }
        return new ClusterSnapshot(at(now), SnapshotFixture.occupy(nodes, list), list, distribution, memory);
    }

    private void passesUntilFixpoint() {
        for (int round = 0; round < 6; round++) {
            ClusterSnapshot snap = snapshot();
            Decisions decisions = policy.decide(snap);
            passes++;
            DecisionValidator.assertValid(snap, decisions);
            if (decisions.isEmpty()) {
                Optional<Instant> wake = policy.nextWakeUp(snap);
                if (wake.isPresent()) {
                    double t = seconds(wake.get());
                    if (t <= now) {
                        throw new AssertionError("nextWakeUp " + wake.get() + " is not after now " + snap.now());
                    }
                    nextWake = Math.min(nextWake, t);
                }
                return;
            }
            decisions.list().forEach(this::apply);
        }
        throw new AssertionError("passes at " + at(now) + " did not reach a fixpoint in 6 rounds");
    }

    private void apply(Decision d) {
        counts.merge(d.type(), 1, Integer::sum);
        log.add(String.format(java.util.Locale.ROOT, "%.3f %s %s", now, d.type(), d.jobId()));
        Sim s = jobs.get(d.jobId());
        switch (d) {
            case Decision.Start st -> start(s, st.gpus());
            case Decision.Pack p -> {
                start(s, p.gpus());
                s.sharing.addAll(p.sharingWith());
                s.changedAt = now;
                for (String id : p.sharingWith()) {
                    Sim partner = jobs.get(id);
                    partner.sharing.add(s.spec.id());
                    partner.changedAt = now;
                    partner.baseline = throughput(partner);
                }
            }
            case Decision.Suspend su -> suspend(s);
            case Decision.Migrate m -> {
                s.baseline = throughput(s);
                suspend(s);
                s.reserved = m.to();
                s.previous = m.from();
            }
            case Decision.Reject r -> s.state = JobState.REJECTED;
            case Decision.ChangeQueue c -> {
                if (c.toLevel() < c.fromLevel()) {
                    s.waiting = 0;
                }
                s.level = c.toLevel();
            }
            case Decision.RecordInterference r -> memory = memory.record(r.modelA(), r.modelB());
            case Decision.ConfirmPlacement c -> clearIntrospection(s);
        }
    }

    private void start(Sim s, List<GpuId> gpus) {
        s.state = JobState.STARTING;
        s.placement = gpus;
        s.executed = 0;
        s.waiting = 0;
        s.attempt++;
        events.add(new Event(now + startDelay, seq++, Kind.STARTED, s.spec.id()));
    }

    private void suspend(Sim s) {
        s.state = JobState.SUSPENDING;
        events.add(new Event(now + suspendDelay, seq++, Kind.SUSPENDED, s.spec.id()));
    }

    private void handle(Event e) {
        Sim s = jobs.get(e.jobId());
        switch (e.kind()) {
            case ARRIVAL -> {
                s.seq = seq++;
                s.arrived = true;
                s.state = JobState.QUEUED;
            }
            case STARTED -> {
                if (s.state == JobState.STARTING) {
                    s.state = JobState.RUNNING;
                }
            }
            case SUSPENDED -> {
                if (s.state != JobState.SUSPENDING) {
                    return;
                }
                leaveSharing(s);
                if (!s.reserved.isEmpty()) {
                    s.placement = s.reserved;
                    s.reserved = List.of();
                    s.state = JobState.STARTING;
                    s.executed = 0;
                    s.changedAt = now;
                    events.add(new Event(now + startDelay, seq++, Kind.STARTED, s.spec.id()));
                } else {
                    s.state = JobState.QUEUED;
                    s.placement = List.of();
                    s.waiting = 0;
                    clearIntrospection(s);
                }
            }
        }
    }

    private void completeFinishedWork() {
        for (Sim s : jobs.values()) {
            if (s.state == JobState.RUNNING && s.remaining <= EPS) {
                s.state = JobState.FINISHED;
                leaveSharing(s);
                s.placement = List.of();
                finished.put(s.spec.id(), now);
                distribution = distribution.record(s.attained);
            }
        }
    }

    private void leaveSharing(Sim s) {
        for (String id : s.sharing) {
            jobs.get(id).sharing.remove(s.spec.id());
        }
        s.sharing.clear();
    }

    private static void clearIntrospection(Sim s) {
        s.changedAt = null;
        s.baseline = Double.NaN;
        s.previous = List.of();
    }

    private double rate(Sim s) {
        return s.sharing.isEmpty() ? 1.0 : packedRate;
    }

    private double throughput(Sim s) {
        double solo = s.spec.profile().soloThroughput();
        return rate(s) * (Double.isNaN(solo) ? 1.0 : solo);
    }

    private double nextCompletion() {
        double best = Double.POSITIVE_INFINITY;
        for (Sim s : jobs.values()) {
            if (s.state == JobState.RUNNING) {
                best = Math.min(best, now + Math.max(0, s.remaining) / rate(s));
            }
        }
        return best;
    }

    private void advance(double dt) {
        if (dt <= 0) {
            return;
        }
        for (Sim s : jobs.values()) {
            if (!s.arrived) {
                continue;
            }
            switch (s.state) {
                case RUNNING -> {
                    s.attained += s.spec.numGpus() * dt;
                    s.executed += dt;
                    s.remaining -= rate(s) * dt;
                }
                case SUSPENDING -> {
                    s.attained += s.spec.numGpus() * dt;
                    s.executed += dt;
                }
                case QUEUED -> s.waiting += dt;
                default -> { }
            }
        }
    }

    private static Instant at(double seconds) {
        return Instant.EPOCH.plusNanos(Math.round(seconds * 1e9));
    }

    private static double seconds(Instant t) {
        return t.getEpochSecond() + t.getNano() / 1e9;
    }
}
