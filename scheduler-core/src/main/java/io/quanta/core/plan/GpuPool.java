package io.quanta.core.plan;

import io.quanta.core.model.GpuId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Mutable availability of GPUs during one pass: free GPUs not yet taken, soon-free GPUs (held by suspending jobs)
 * not yet earmarked, and a tentative layer of victims' GPUs used while planning one preemption. Keeps nodes
 * bucketed by free count for fast best-fit. Never shared between passes.
 */
public final class GpuPool {

    private final CellIndex cell;
    private final long[] avail;
    private final long[] soon;
    private final long[] victim;
    private final BitSet[] byCount;
    private final BitSet soonNodes = new BitSet();
    private final BitSet victimNodes = new BitSet();
    private final BitSet scratch = new BitSet();
    private final long[] nonEmpty = new long[2];
    private final long[] failedAtVersion = {-1, -1, -1};
    private final int[] smallestFailedSingleNode = new int[3];
    private long version;
    private int totalAvail;
    private int totalSoon;
    private int totalVictim;

    public GpuPool(CellIndex cell) {
        this.cell = cell;
        int n = cell.nodeCount();
        this.avail = new long[n];
        this.soon = new long[n];
        this.victim = new long[n];
        this.byCount = new BitSet[65];
        for (int c = 0; c <= 64; c++) {
            byCount[c] = new BitSet(n);
        }
        for (int i = 0; i < n; i++) {
            avail[i] = cell.free(i);
            soon[i] = cell.soonFree(i);
            int c = Long.bitCount(avail[i]);
            byCount[c].set(i);
            nonEmpty[c >>> 6] |= 1L << c;
            totalAvail += c;
            if (soon[i] != 0) {
                soonNodes.set(i);
                totalSoon += Long.bitCount(soon[i]);
            }
        }
    }

    public CellIndex cell() {
        return cell;
    }

    /**
     * True when, since the free and soon-free sets last changed, no single node offered {@code need} or fewer GPUs
     * of this layer: then none offers more either (monotone), and the placement can fail at once.
     */
    public boolean knownSingleNodeFailure(Layer layer, int need) {
        return failedAtVersion[layer.ordinal()] == version && need >= smallestFailedSingleNode[layer.ordinal()];
    }

    /** Remembers that no single node offers {@code need} GPUs of this layer, until the pool changes. */
    public void rememberSingleNodeFailure(Layer layer, int need) {
        int i = layer.ordinal();
        if (failedAtVersion[i] != version) {
            failedAtVersion[i] = version;
            smallestFailedSingleNode[i] = need;
        } else {
            smallestFailedSingleNode[i] = Math.min(smallestFailedSingleNode[i], need);
        }
    }

    /** Changes whenever the free or soon-free sets change (not the tentative victims' layer). */
    public long version() {
        return version;
    }

    public int totalFree() {
        return totalAvail;
    }

    /** The most GPUs free on any one node (whatever their model), 0 when none is free. */
    public int largestFreeOnOneNode() {
        if (nonEmpty[1] != 0) {
            return 127 - Long.numberOfLeadingZeros(nonEmpty[1]);
        }
        return Math.max(0, 63 - Long.numberOfLeadingZeros(nonEmpty[0]));
    }

    public int totalSoon() {
        return totalSoon;
    }

    public int totalVictim() {
        return totalVictim;
    }

    /** True when the GPU is free and not yet taken in this pass. */
    public boolean isFree(GpuId id) {
        int node = cell.nodeIndex(id.nodeId());
        return node >= 0 && (avail[node] & (1L << id.index())) != 0;
    }

    /** Removes GPUs from the free and soon-free sets (a start, an earmark or a migration target). */
    public void take(Collection<GpuId> gpus) {
        version++;
        for (GpuId id : gpus) {
            int node = cell.nodeIndex(id.nodeId());
            long bit = 1L << id.index();
            if ((avail[node] & bit) != 0) {
                setAvail(node, avail[node] & ~bit);
            } else if ((soon[node] & bit) != 0) {
                soon[node] &= ~bit;
                totalSoon--;
                if (soon[node] == 0) {
                    soonNodes.clear(node);
                }
            }
        }
    }

    /**
     * Returns to the free set GPUs that were free when this pass took them ({@link #take}) and that it did not use
     * after all (a plan given up); GPUs already free or soon-free, or not usable, are left as they are.
     */
    public void giveBack(Collection<GpuId> freeGpus) {
        version++;
        for (GpuId id : freeGpus) {
            int node = cell.nodeIndex(id.nodeId());
            long bit = 1L << id.index();
            if (node >= 0 && (cell.usable(node) & bit) != 0 && ((avail[node] | soon[node]) & bit) == 0) {
                setAvail(node, avail[node] | bit);
            }
        }
    }

    /** Adds GPUs that will be free once a suspension decided in this pass completes. */
    public void addSoon(Collection<GpuId> gpus) {
        version++;
        for (GpuId id : gpus) {
            int node = cell.nodeIndex(id.nodeId());
            long bit = 1L << id.index();
            if (node >= 0 && (cell.usable(node) & bit) != 0 && (soon[node] & bit) == 0 && (avail[node] & bit) == 0) {
                soon[node] |= bit;
                soonNodes.set(node);
                totalSoon++;
            }
        }
    }

    /** Adds a tentative victim's GPUs to the planning layer; returns how many usable GPUs were added. */
    public int addVictim(Collection<GpuId> gpus) {
        int added = 0;
        for (GpuId id : gpus) {
            int node = cell.nodeIndex(id.nodeId());
            long bit = 1L << id.index();
            if (node >= 0 && (cell.usable(node) & bit) != 0 && ((avail[node] | soon[node] | victim[node]) & bit) == 0) {
                victim[node] |= bit;
                victimNodes.set(node);
                totalVictim++;
                added++;
            }
        }
        return added;
    }

    /** The most GPUs of the layer (of a model, or any) available on one of the nodes these GPUs belong to. */
    public int bestNodeCount(List<GpuId> gpus, Layer layer, Optional<String> model) {
        int best = 0;
        String last = null;
        for (GpuId id : gpus) {
            if (id.nodeId().equals(last)) {
                continue;
            }
            last = id.nodeId();
            int node = cell.nodeIndex(last);
            if (node >= 0) {
                best = Math.max(best, Long.bitCount(mask(node, layer) & cell.modelMask(model, node)));
            }
        }
        return best;
    }

    /**
     * The free and soon-free GPUs (of the model, or of any) of the nodes that come nearest to holding a gang of
     * {@code need} GPUs: of the nodes that could hold it alone, the one with the most such GPUs (the lowest position on
     * a tie); for a gang larger than any node, the fewest nodes with the most such GPUs whose GPUs of the model add up
     * to {@code need}. Empty when none of those nodes has such a GPU. O(nodes), plus a sort for a gang larger than a
     * node.
     */
    public List<GpuId> nearestTo(int need, Optional<String> model) {
        int n = cell.nodeCount();
        List<Integer> chosen = new ArrayList<>();
        if (need <= cell.maxPerNode(model)) {
            int best = -1;
            int bestCount = 0;
            for (int node = 0; node < n; node++) {
                long ofModel = cell.modelMask(model, node);
                int count = Long.bitCount(mask(node, Layer.SOON) & ofModel);
                if (count > bestCount && Long.bitCount(cell.usable(node) & ofModel) >= need) {
                    best = node;
                    bestCount = count;
                }
            }
            if (best >= 0) {
                chosen.add(best);
            }
        } else {
            long[] fullestFirst = new long[n];
            for (int node = 0; node < n; node++) {
                int count = Long.bitCount(mask(node, Layer.SOON) & cell.modelMask(model, node));
                fullestFirst[node] = ((long) (64 - count) << 32) | node;
            }
            Arrays.sort(fullestFirst);
            int covered = 0;
            for (int i = 0; i < n && covered < need; i++) {
                int node = (int) fullestFirst[i];
                int usable = Long.bitCount(cell.usable(node) & cell.modelMask(model, node));
                if (usable > 0) {
                    chosen.add(node);
                    covered += usable;
                }
            }
            if (covered < need) {
                chosen.clear();
            }
        }
        List<GpuId> gpus = new ArrayList<>();
        for (int node : chosen) {
            gpus.addAll(gpusOn(node, Layer.SOON, model));
        }
        return gpus;
    }

    /** How many GPUs of the layer (of the model, or of any) one node has. */
    public int countOn(int node, Layer layer, Optional<String> model) {
        return Long.bitCount(mask(node, layer) & cell.modelMask(model, node));
    }

    /** The GPUs of the layer (of the model, or of any) on one node, low index first. */
    public List<GpuId> gpusOn(int node, Layer layer, Optional<String> model) {
        List<GpuId> gpus = new ArrayList<>();
        long bits = mask(node, layer) & cell.modelMask(model, node);
        while (bits != 0) {
            gpus.add(cell.gpuId(node, Long.numberOfTrailingZeros(bits)));
            bits &= bits - 1;
        }
        return gpus;
    }

    /** Forgets the tentative victims' layer. */
    public void clearVictims() {
        for (int node = victimNodes.nextSetBit(0); node >= 0; node = victimNodes.nextSetBit(node + 1)) {
            victim[node] = 0;
        }
        victimNodes.clear();
        totalVictim = 0;
    }

    long mask(int node, Layer layer) {
        return switch (layer) {
            case FREE -> avail[node];
            case SOON -> avail[node] | soon[node];
            case VICTIMS -> avail[node] | soon[node] | victim[node];
        };
    }

    /** Picks {@code need} GPUs of {@code allowed} on a node: free first, then soon-free, then victims', low index first. */
    long pick(int node, long allowed, int need, Layer layer) {
        long chosen = 0;
        int left = need;
        long[] tiers = {avail[node], soon[node], victim[node]};
        int tierCount = layer.ordinal() + 1;
        for (int t = 0; t < tierCount && left > 0; t++) {
            long bits = tiers[t] & allowed & ~chosen;
            while (bits != 0 && left > 0) {
                long low = Long.lowestOneBit(bits);
                chosen |= low;
                bits &= ~low;
                left--;
            }
        }
        return chosen;
    }

    /** Nodes whose layered mask may differ from the free mask (a shared scratch set: read it before the next call). */
    BitSet layeredNodes(Layer layer) {
        scratch.clear();
        if (layer != Layer.FREE) {
            scratch.or(soonNodes);
        }
        if (layer == Layer.VICTIMS) {
            scratch.or(victimNodes);
        }
        return scratch;
    }

    /** Nodes with at least one free GPU, or on the given layer (a shared scratch set). */
    BitSet candidateNodes(Layer layer) {
        BitSet nodes = layeredNodes(layer);
        for (int c = 1; c <= 64; c++) {
            if ((nonEmpty[c >>> 6] & (1L << c)) != 0) {
                nodes.or(byCount[c]);
            }
        }
        return nodes;
    }

    /** Lowest-positioned node with exactly {@code count} free GPUs, skipping {@code skip}, or -1. */
    int firstWithFreeCount(int count, BitSet skip) {
        if ((nonEmpty[count >>> 6] & (1L << count)) == 0) {
            return -1;
        }
        BitSet bucket = byCount[count];
        int node = bucket.nextSetBit(0);
        while (node >= 0 && skip.get(node)) {
            node = bucket.nextSetBit(node + 1);
        }
        return node;
    }

    private void setAvail(int node, long mask) {
        int before = Long.bitCount(avail[node]);
        int after = Long.bitCount(mask);
        byCount[before].clear(node);
        byCount[after].set(node);
        if (byCount[before].isEmpty()) {
            nonEmpty[before >>> 6] &= ~(1L << before);
        }
        nonEmpty[after >>> 6] |= 1L << after;
        totalAvail += after - before;
        avail[node] = mask;
    }
}
