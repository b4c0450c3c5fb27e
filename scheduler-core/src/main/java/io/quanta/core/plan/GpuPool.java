package io.quanta.core.plan;

import io.quanta.core.model.GpuId;
import java.util.BitSet;
import java.util.Collection;

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

    public int totalFree() {
        return totalAvail;
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
        for (GpuId id : gpus) {
            int node = cell.nodeIndex(id.nodeId());
            long bit = 1L << id.index();
            if ((avail[node] & bit) != 0) {
                setAvail(node, avail[node] & ~bit);
            } else if ((soon[node] & bit) != 0) {
                soon[node] &= ~bit;
                totalSoon--;
            }
        }
    }

    /** Adds GPUs that will be free once a suspension decided in this pass completes. */
    public void addSoon(Collection<GpuId> gpus) {
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

    /** Nodes whose layered mask may differ from the free mask. */
    BitSet layeredNodes(Layer layer) {
        BitSet nodes = new BitSet();
        if (layer != Layer.FREE) {
            nodes.or(soonNodes);
        }
        if (layer == Layer.VICTIMS) {
            nodes.or(victimNodes);
        }
        return nodes;
    }

    /** Lowest-positioned node with exactly {@code count} free GPUs, skipping {@code skip}, or -1. */
    int firstWithFreeCount(int count, BitSet skip) {
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
        totalAvail += after - before;
        avail[node] = mask;
    }
}
