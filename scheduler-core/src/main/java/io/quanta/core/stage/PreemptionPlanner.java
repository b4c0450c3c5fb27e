package io.quanta.core.stage;

import io.quanta.core.model.Gpu;
import io.quanta.core.model.GpuId;
import io.quanta.core.model.Job;
import io.quanta.core.placement.Placement;
import io.quanta.core.plan.Allocation;
import io.quanta.core.plan.CellIndex;
import io.quanta.core.plan.Layer;
import io.quanta.core.plan.LiveIndex;
import io.quanta.core.plan.Placer;
import io.quanta.core.plan.Text;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Preemption-planner stage: for a waiting job that does not fit the free GPUs, first tries free plus soon-free GPUs
 * (held by suspending jobs: no new victim), then adds victims lowest priority first until a placement fits, and
 * suspends only the victims whose GPUs the placement uses. The chosen GPUs are earmarked for the waiting job, which
 * starts in a later pass once they are free. Packed victims are taken with their partners or not at all: by default
 * at the place in victim order of the first of them that comes; optionally ({@code packsAtHost}) only at the place of
 * the one that comes last, so that a job a guest was packed onto yields no earlier than it would alone.
 *
 * <p>The earmark lasts one pass: once the victims' GPUs are free, the next pass gives them to the waiting job ranked
 * first. Optionally ({@code servesPreemptor}) a job preempts only where no job tried before it in this pass and left
 * without GPUs ({@link Allocation#unserved}) could be placed on the free and soon-free GPUs plus the ones the plan
 * frees: such a job, ranked ahead, would take them, though the rule kept it from preempting for them itself, and the
 * preemptor would preempt again. Without it a job the rule lets preempt can do so pass after pass for jobs ranked
 * ahead of it that the rule does not let preempt (a promoted job's gate, the demotion grace), never starting itself.
 */
public final class PreemptionPlanner implements FallbackStep {

    /** What a plan achieved for the waiting job. */
    public enum Outcome { EARMARKED, PREEMPTED, NONE }

    private static final int EAGER_ATTEMPTS = 4;

    private final PreemptionRule rule;
    private final Placer placer;
    private final List<Job> running;
    private final boolean packsAtHost;
    private final boolean servesPreemptor;
    private final Optional<PreemptionRule> bound;
    private final Map<Kind, Job> unservedKinds = new LinkedHashMap<>();
    private int unservedSeen;
    private List<Job> candidates;
    private Map<String, Integer> position;
    private long[] fenwick;
    private LiveIndex live;
    private Job weakest;

    /** @param running the RUNNING jobs of the snapshot (any order) */
    public PreemptionPlanner(PreemptionRule rule, Placer placer, List<Job> running) {
        this(rule, placer, running, false);
    }

    /**
     * @param running the RUNNING jobs of the snapshot (any order)
     * @param packsAtHost true to take a packed candidate with its partners only when the partner that comes last in
     *     victim order is reached, false to take them at the first one's place
     */
    public PreemptionPlanner(PreemptionRule rule, Placer placer, List<Job> running, boolean packsAtHost) {
        this(rule, placer, running, packsAtHost, false);
    }

    /**
     * @param running the RUNNING jobs of the snapshot (any order)
     * @param packsAtHost true to take a packed candidate with its partners only when the partner that comes last in
     *     victim order is reached, false to take them at the first one's place
     * @param servesPreemptor true to preempt only where no job left waiting earlier in the pass could take the GPUs
     */
    public PreemptionPlanner(PreemptionRule rule, Placer placer, List<Job> running, boolean packsAtHost,
                             boolean servesPreemptor) {
        this.rule = rule;
        this.placer = placer;
        this.running = running;
        this.packsAtHost = packsAtHost;
        this.servesPreemptor = servesPreemptor;
        this.bound = rule.monotoneBound();
    }

    /** A fallback that only earmarks free plus soon-free GPUs (no victims), e.g. to try before packing. */
    public static FallbackStep earmarkSoonFree(Placer placer) {
        return (waiting, alloc) -> {
            Optional<Placement> soon = placer.place(waiting, alloc.pool(), Layer.SOON);
            soon.ifPresent(p -> alloc.earmark(waiting, p.gpus()));
            return soon.isPresent();
        };
    }

    @Override
    public boolean handle(Job waiting, Allocation alloc) {
        return plan(waiting, alloc) != Outcome.NONE;
    }

    /** Plans for {@code waiting}; on success the decisions and earmarks are recorded in {@code alloc}. */
    public Outcome plan(Job waiting, Allocation alloc) {
        if (earmarkSoonFree(placer).handle(waiting, alloc)) {
            return Outcome.EARMARKED;
        }
        return preempt(waiting, alloc);
    }

    /**
     * This planner without its first step, for a policy that tried the soon-free GPUs itself ({@link #earmarkSoonFree})
     * and another fallback after them: only victims are planned, so the soon-free search is not made twice per job.
     */
    public FallbackStep victimsOnly() {
        return (waiting, alloc) -> preempt(waiting, alloc) != Outcome.NONE;
    }

    private Outcome preempt(Job waiting, Allocation alloc) {
        if (nobodyToPreempt(waiting, alloc)) {
            return Outcome.NONE;
        }
        init(alloc);
        int prefix = bound.map(b -> preemptiblePrefix(waiting, b)).orElse(candidates.size());
        long reachable = alloc.pool().totalFree() + alloc.pool().totalSoon() + sum(prefix);
        if (prefix == 0 || (waiting.gpuType().isEmpty() && reachable < waiting.numGpus())) {
            return Outcome.NONE;
        }
        return tryVictims(waiting, alloc, prefix);
    }

    private Outcome tryVictims(Job waiting, Allocation alloc, int prefix) {
        List<List<Job>> units = new ArrayList<>();
        int perNode = alloc.cell().maxPerNode(waiting.gpuType());
        boolean singleNode = waiting.numGpus() <= perNode && placer.rule().mustConsolidate(waiting);
        int attempts = 0;
        int nextAttemptAt = 1;
        Optional<Placement> found = Optional.empty();
        for (int i = live.first(0); i < prefix && found.isEmpty(); i = live.first(i + 1)) {
            Job c = candidates.get(i);
            if (alloc.hasActed(c.id())) {
                live.remove(i);
                continue;
            }
            if (!rule.mayPreempt(waiting, c)) {
                continue;
            }
            List<Job> unit = unitOf(c, waiting, alloc);
            if (unit.isEmpty() || (packsAtHost && comesLater(unit, i)) || addUnit(unit, alloc) == 0) {
                continue;
            }
            units.add(unit);
            boolean worthTrying;
            if (singleNode) {
                worthTrying = alloc.pool().bestNodeCount(c.placement(), Layer.VICTIMS, waiting.gpuType())
                        >= waiting.numGpus();
            } else {
                boolean enough = waiting.gpuType().isPresent() || alloc.pool().totalFree() + alloc.pool().totalSoon()
                        + alloc.pool().totalVictim() >= waiting.numGpus();
                worthTrying = enough && (attempts < EAGER_ATTEMPTS || units.size() >= nextAttemptAt
                        || live.first(i + 1) >= prefix);
            }
            if (worthTrying) {
                attempts++;
                nextAttemptAt = units.size() * 2;
                found = placer.place(waiting, alloc.pool(), Layer.VICTIMS);
            }
        }
        if (found.isEmpty() && !units.isEmpty() && !singleNode) {
            found = placer.place(waiting, alloc.pool(), Layer.VICTIMS);
        }
        alloc.pool().clearVictims();
        if (found.isEmpty()) {
            return Outcome.NONE;
        }
        Set<GpuId> chosen = new HashSet<>(found.get().gpus());
        List<List<Job>> touched = units.stream().filter(unit -> touches(unit, chosen)).toList();
        if (servesPreemptor && !touched.isEmpty()) {
            Optional<Job> ahead = anotherWouldTake(touched, alloc);
            if (ahead.isPresent()) {
                alloc.yieldedTo(waiting, ahead.get());
                return Outcome.NONE;
            }
        }
        for (List<Job> unit : touched) {
            for (Job victim : unit) {
                alloc.suspend(victim, rule.reason(waiting, victim), Text.details(
                        "preemptedBy", waiting.id(), "victimAttainedGpuSeconds", Text.num(victim.attainedGpuSeconds()),
                        "victimLevel", Integer.toString(alloc.level(victim)),
                        "waitingLevel", Integer.toString(alloc.level(waiting))));
                update(victim);
            }
        }
        alloc.earmark(waiting, found.get().gpus());
        return touched.isEmpty() ? Outcome.EARMARKED : Outcome.PREEMPTED;
    }

    /**
     * The first job left waiting earlier in this pass that fits the free and soon-free GPUs plus those of
     * {@code victims}: once they are free it, ranked ahead, would start on them ({@code waiting} is not among them:
     * {@link GangScheduler} records a job as unserved only after its fallbacks, this planner among them, failed). One
     * placement is tried per kind of job (size, GPU model, whether it must consolidate), which is all the placement
     * reads of a job; the kinds are collected as jobs are left waiting, so a pass of many preemptions and a long queue
     * reads each waiting job once, not once per preemption.
     */
    private Optional<Job> anotherWouldTake(List<List<Job>> victims, Allocation alloc) {
        List<Job> ahead = alloc.unserved();
        for (; unservedSeen < ahead.size(); unservedSeen++) {
            Job job = ahead.get(unservedSeen);
            unservedKinds.putIfAbsent(new Kind(job.numGpus(), job.gpuType(), placer.rule().mustConsolidate(job)), job);
        }
        if (unservedKinds.isEmpty()) {
            return Optional.empty();
        }
        victims.forEach(unit -> addUnit(unit, alloc));
        try {
            int reachable = alloc.pool().totalFree() + alloc.pool().totalSoon() + alloc.pool().totalVictim();
            for (Map.Entry<Kind, Job> kind : unservedKinds.entrySet()) {
                Job other = kind.getValue();
                if (other.gpuType().isEmpty() && other.numGpus() > reachable) {
                    continue;
                }
                if (placer.place(other, alloc.pool(), Layer.VICTIMS, kind.getKey().consolidate()).isPresent()) {
                    return Optional.of(other);
                }
            }
            return Optional.empty();
        } finally {
            alloc.pool().clearVictims();
        }
    }

    /** What a placement reads of a job: its size, its GPU model, whether it must consolidate now. */
    private record Kind(int gpus, Optional<String> gpuType, boolean consolidate) {
    }

    /** True when a member of {@code unit} other than the candidate at {@code i} comes after it in victim order. */
    private boolean comesLater(List<Job> unit, int i) {
        for (Job member : unit) {
            Integer at = position.get(member.id());
            if (at != null && at > i) {
                return true;
            }
        }
        return false;
    }

    private static boolean touches(List<Job> unit, Set<GpuId> chosen) {
        for (Job j : unit) {
            for (GpuId g : j.placement()) {
                if (chosen.contains(g)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Cheap early-out before sorting: not even the weakest candidate can be preempted under the rule's monotone bound
     * (the rule itself when it is monotone).
     */
    private boolean nobodyToPreempt(Job waiting, Allocation alloc) {
        if (candidates != null || bound.isEmpty()) {
            return false;
        }
        if (weakest == null) {
            Comparator<Job> order = rule.victimOrder();
            for (Job j : running) {
                if (j.isRunning() && rule.eligible(j) && !alloc.hasActed(j.id())
                        && (weakest == null || order.compare(j, weakest) < 0)) {
                    weakest = j;
                }
            }
            if (weakest == null) {
                return true;
            }
        }
        return !alloc.hasActed(weakest.id()) && !bound.get().mayPreempt(waiting, weakest);
    }

    private List<Job> unitOf(Job c, Job waiting, Allocation alloc) {
        if (!c.isPacked()) {
            return List.of(c);
        }
        List<Job> unit = new ArrayList<>();
        unit.add(c);
        for (String id : c.sharingWith()) {
            Job partner = alloc.cell().job(id);
            if (partner == null || !partner.isRunning() || alloc.hasActed(id) || !rule.eligible(partner)
                    || !rule.mayPreempt(waiting, partner)) {
                return List.of();
            }
            unit.add(partner);
        }
        return unit;
    }

    private int addUnit(List<Job> unit, Allocation alloc) {
        CellIndex cell = alloc.cell();
        if (unit.size() == 1) {
            Job only = unit.get(0);
            List<GpuId> alone = new ArrayList<>(only.placement().size());
            for (GpuId g : only.placement()) {
                if (cell.occupants(g) == 1) {
                    alone.add(g);
                }
            }
            return alloc.pool().addVictim(alone);
        }
        Set<String> ids = new HashSet<>();
        unit.forEach(j -> ids.add(j.id()));
        List<GpuId> gpus = new ArrayList<>();
        for (Job j : unit) {
            for (GpuId g : j.placement()) {
                Gpu gpu = cell.gpuOrNull(g);
                if (gpu != null && ids.containsAll(gpu.jobIds())) {
                    gpus.add(g);
                }
            }
        }
        return alloc.pool().addVictim(gpus);
    }

    private void init(Allocation alloc) {
        if (candidates != null) {
            return;
        }
        List<Job> list = new ArrayList<>();
        for (Job j : running) {
            if (j.isRunning() && rule.eligible(j) && !alloc.hasActed(j.id())) {
                list.add(j);
            }
        }
        rule.sortVictims(list);
        candidates = list;
        position = new HashMap<>(list.size() * 2);
        fenwick = new long[list.size() + 1];
        live = new LiveIndex(list.size());
        for (int i = 0; i < list.size(); i++) {
            position.put(list.get(i).id(), i);
            add(i, list.get(i).numGpus());
        }
    }

    /** The length of the prefix of the candidates that {@code monotone} lets {@code waiting} preempt. */
    private int preemptiblePrefix(Job waiting, PreemptionRule monotone) {
        int lo = 0;
        int hi = candidates.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (monotone.mayPreempt(waiting, candidates.get(mid))) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private void update(Job victim) {
        Integer i = position.get(victim.id());
        if (i != null) {
            add(i, -victim.numGpus());
            live.remove(i);
        }
    }

    private void add(int i, long delta) {
        for (int k = i + 1; k < fenwick.length; k += k & -k) {
            fenwick[k] += delta;
        }
    }

    private long sum(int prefix) {
        long s = 0;
        for (int k = prefix; k > 0; k -= k & -k) {
            s += fenwick[k];
        }
        return s;
    }
}
