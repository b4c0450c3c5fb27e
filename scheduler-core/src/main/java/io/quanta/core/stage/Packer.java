package io.quanta.core.stage;

import io.quanta.core.model.Gpu;
import io.quanta.core.model.GpuId;
import io.quanta.core.model.InterferenceMemory;
import io.quanta.core.model.Job;
import io.quanta.core.placement.PlacementRule;
import io.quanta.core.plan.Allocation;
import io.quanta.core.plan.CellIndex;
import io.quanta.core.plan.LiveIndex;
import io.quanta.core.plan.Text;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Packing fallback (Gandiva): a waiting job that got no GPUs (the cell is over-subscribed) shares the GPUs of a
 * running job of the same size when the memory of every occupant plus its own fits each GPU, the GPUs hold fewer
 * than the maximum jobs, no occupant is under introspection, and no pair is remembered as interfering. Partners with
 * the least memory are tried first (most head-room), then by arrival. Optionally ({@link #provenPairsForGangs}) a
 * waiting gang packs only with a model pair that a pack now running has proven: introspection kept it, so it gains.
 * Optionally ({@link #keepingLocality}) a waiting gang that must still wait for a consolidated placement packs only
 * onto a partner whose GPUs are consolidated.
 */
public final class Packer implements FallbackStep {

    private static final int SCAN_LIMIT = 256;

    private final String policy;
    private final int maxJobsPerGpu;
    private final InterferenceMemory memory;
    private final List<Job> running;
    private final Map<GpuId, List<Job>> packedThisPass = new HashMap<>();
    private final Map<String, Job> packedJobs = new HashMap<>();
    private Map<Integer, List<Job>> bySize;
    private Map<Integer, LiveIndex> liveBySize;
    private long largestGpu;
    /** Changes of this packer's own state in the pass: candidates found full or acted on, and packs. */
    private long changes;
    /**
     * Waiting jobs that found no partner, by what the search depends on, with the state it saw. A later waiting job
     * with the same size, memory, model and GPU type that finds the same state would scan the same candidates with
     * the same outcome, so it fails at once: under heavy load thousands of equal waiting jobs each scanned up to
     * {@link #SCAN_LIMIT} partners in every pass. Only scans that changed nothing are remembered (a scan that
     * dropped candidates leaves a different window for the next one).
     */
    private final Map<SearchKey, SearchState> fruitless = new HashMap<>();
    /** The model pairs a waiting gang may pack with, or null for any pair not remembered as interfering. */
    private Set<InterferenceMemory.Pair> gangPairs;
    /** The placement rule a waiting gang's partner must satisfy, or null when a gang may pack onto any partner. */
    private PlacementRule localityRule;

    private record SearchKey(int numGpus, long gpuMemoryMiB, String modelName, Optional<String> gpuType,
                             boolean consolidatedOnly) {
    }

    private record SearchState(long changes, int acted) {
    }

    public Packer(String policy, int maxJobsPerGpu, InterferenceMemory memory, List<Job> running) {
        this.policy = policy;
        this.maxJobsPerGpu = maxJobsPerGpu;
        this.memory = memory;
        this.running = running;
    }

    /**
     * Limits waiting gangs (2 GPUs or more) to the model pairs of the settled packs among the running jobs: packs
     * whose introspection ended and kept them (no member's placement is still being judged). Introspection remembers
     * only bad pairs, so without this the first try of every unmeasured pair may fall on a long gang, which then runs
     * slowed on all its GPUs for a whole introspection window and is moved back (one-GPU jobs still try new pairs).
     */
    public Packer provenPairsForGangs() {
        Map<String, Job> byId = new HashMap<>();
        running.forEach(j -> byId.put(j.id(), j));
        Set<InterferenceMemory.Pair> proven = new HashSet<>();
        for (Job j : running) {
            if (!settled(j)) {
                continue;
            }
            for (String id : j.sharingWith()) {
                Job partner = byId.get(id);
                if (partner != null && settled(partner)) {
                    proven.add(new InterferenceMemory.Pair(j.profile().modelName(), partner.profile().modelName()));
                }
            }
        }
        gangPairs = proven;
        return this;
    }

    /**
     * A waiting gang (2 GPUs or more) that {@code rule} says must still wait for a consolidated placement (its
     * relaxation timeout, or its patience after a long run, has not run out) packs only onto a partner whose GPUs span
     * no more servers than it needs: a pack puts the gang on its partner's GPUs, so without this a gang the placement
     * rule keeps waiting for one server joins a partner spread over several, and the pair then runs spread (slowed by
     * both the sharing and the spread) and holds a GPU or two on each of those servers, which neither de-fragmenting
     * migration nor making room moves (they move no packed job), for as long as the pack lasts: days, for the long
     * gangs that get relaxed. A gang past its timeout may still pack onto a spread partner, as it may start spread.
     */
    public Packer keepingLocality(PlacementRule rule) {
        localityRule = rule;
        return this;
    }

    private boolean consolidatedOnly(Job waiting) {
        return localityRule != null && waiting.numGpus() > 1 && localityRule.mustConsolidate(waiting);
    }

    private static boolean settled(Job j) {
        return j.isRunning() && j.isPacked() && j.placementChangedAt().isEmpty();
    }

    @Override
    public boolean handle(Job waiting, Allocation alloc) {
        if (!waiting.profile().memoryKnown()) {
            return false;
        }
        init(alloc.cell());
        List<Job> candidates = bySize.get(waiting.numGpus());
        if (candidates == null) {
            return false;
        }
        SearchKey key = new SearchKey(waiting.numGpus(), waiting.profile().gpuMemoryMiB(),
                waiting.profile().modelName(), waiting.gpuType(), consolidatedOnly(waiting));
        SearchState before = new SearchState(changes, alloc.actedCount());
        if (before.equals(fruitless.get(key))) {
            return false;
        }
        LiveIndex live = liveBySize.get(waiting.numGpus());
        int scanned = 0;
        for (int i = live.first(0); i < candidates.size(); i = live.first(i + 1)) {
            Job partner = candidates.get(i);
            if (++scanned > SCAN_LIMIT || waiting.profile().gpuMemoryMiB() + partner.profile().gpuMemoryMiB() > largestGpu) {
                break;
            }
            if (alloc.hasActed(partner.id()) || full(partner, alloc.cell())) {
                live.remove(i);
                changes++;
                continue;
            }
            if (key.consolidatedOnly() && Defragmenter.spreadBeyondNeed(partner, alloc.cell())) {
                continue;
            }
            Optional<List<Job>> occupants = occupantsIfPackable(waiting, partner, alloc.cell());
            if (occupants.isPresent()) {
                pack(waiting, partner, occupants.get(), alloc);
                changes++;
                return true;
            }
        }
        if (before.changes() == changes) {
            fruitless.put(key, before);
        }
        return false;
    }

    private void pack(Job waiting, Job partner, List<Job> occupants, Allocation alloc) {
        long used = waiting.profile().gpuMemoryMiB();
        List<String> ids = new ArrayList<>();
        StringBuilder names = new StringBuilder();
        for (Job o : occupants) {
            used += o.profile().gpuMemoryMiB();
            ids.add(o.id());
            names.append(names.isEmpty() ? "" : ", ").append(o.id()).append(" (").append(o.profile().modelName())
                    .append(", ").append(o.profile().gpuMemoryMiB()).append(" MiB)");
        }
        long capacity = minMemory(partner, alloc.cell());
        alloc.pack(waiting, partner.placement(), ids, policy + ": pack job " + waiting.id() + " ("
                        + waiting.profile().modelName() + ", " + waiting.profile().gpuMemoryMiB() + " MiB) with " + names
                        + " on " + partner.placement().size() + " GPU(s): over-subscribed, memory " + used + " <= "
                        + capacity + " MiB",
                Text.details("memoryMiB", Long.toString(used), "gpuMemoryMiB", Long.toString(capacity),
                        "sharingWith", String.join(",", ids)));
        for (GpuId g : partner.placement()) {
            packedThisPass.computeIfAbsent(g, k -> new ArrayList<>()).add(waiting);
        }
        packedJobs.put(waiting.id(), waiting);
    }

    /** True when the partner's first GPU already holds the most jobs allowed (for the rest of the pass). */
    private boolean full(Job partner, CellIndex cell) {
        GpuId first = partner.placement().get(0);
        int occupants = cell.gpu(first).map(g -> g.jobIds().size()).orElse(maxJobsPerGpu)
                + packedThisPass.getOrDefault(first, List.of()).size();
        return occupants >= maxJobsPerGpu;
    }

    /** The jobs already on the partner's GPUs when the waiting job may join them, else empty. */
    private Optional<List<Job>> occupantsIfPackable(Job waiting, Job partner, CellIndex cell) {
        List<String> reference = null;
        long capacity = Long.MAX_VALUE;
        for (GpuId g : partner.placement()) {
            Optional<Gpu> gpu = cell.gpu(g);
            if (gpu.isEmpty() || !cell.isUsable(g)
                    || (waiting.gpuType().isPresent() && !waiting.gpuType().get().equals(gpu.get().model()))) {
                return Optional.empty();
            }
            List<String> ids = new ArrayList<>(gpu.get().jobIds());
            packedThisPass.getOrDefault(g, List.of()).forEach(j -> ids.add(j.id()));
            ids.sort(Comparator.naturalOrder());
            if (reference != null && !reference.equals(ids)) {
                return Optional.empty();
            }
            reference = ids;
            capacity = Math.min(capacity, gpu.get().memoryMiB());
        }
        if (reference == null || reference.size() >= maxJobsPerGpu) {
            return Optional.empty();
        }
        List<Job> occupants = new ArrayList<>();
        long used = waiting.profile().gpuMemoryMiB();
        for (String id : reference) {
            Job o = occupant(id, cell);
            if (o == null || !o.profile().memoryKnown() || o.placementChangedAt().isPresent()
                    || memory.isBadPair(waiting.profile().modelName(), o.profile().modelName())
                    || (gangPairs != null && waiting.numGpus() > 1 && !gangPairs.contains(
                            new InterferenceMemory.Pair(waiting.profile().modelName(), o.profile().modelName())))) {
                return Optional.empty();
            }
            used += o.profile().gpuMemoryMiB();
            occupants.add(o);
        }
        return used <= capacity ? Optional.of(occupants) : Optional.empty();
    }

    private Job occupant(String id, CellIndex cell) {
        Job packed = packedJobs.get(id);
        if (packed != null) {
            return packed;
        }
        Job j = cell.job(id);
        return j != null && j.isRunning() ? j : null;
    }

    private static long minMemory(Job partner, CellIndex cell) {
        long min = Long.MAX_VALUE;
        for (GpuId g : partner.placement()) {
            min = Math.min(min, cell.gpu(g).map(Gpu::memoryMiB).orElse(0L));
        }
        return min;
    }

    private void init(CellIndex cell) {
        if (bySize != null) {
            return;
        }
        bySize = new TreeMap<>();
        for (Job j : running) {
            if (j.isRunning() && j.profile().memoryKnown() && j.placementChangedAt().isEmpty()
                    && !j.placement().isEmpty()) {
                bySize.computeIfAbsent(j.numGpus(), k -> new ArrayList<>()).add(j);
            }
        }
        Comparator<Job> order = Comparator.<Job>comparingLong(j -> j.profile().gpuMemoryMiB())
                .thenComparing(Ranking.byArrival());
        bySize.values().forEach(list -> list.sort(order));
        liveBySize = new HashMap<>();
        bySize.forEach((size, list) -> liveBySize.put(size, new LiveIndex(list.size())));
        for (int node = 0; node < cell.nodeCount(); node++) {
            long usable = cell.usable(node);
            while (usable != 0) {
                int index = Long.numberOfTrailingZeros(usable);
                usable &= usable - 1;
                largestGpu = Math.max(largestGpu, cell.gpu(cell.gpuId(node, index)).map(Gpu::memoryMiB).orElse(0L));
            }
        }
    }
}
