package io.quanta.core.plan;

import io.quanta.core.model.GpuId;
import io.quanta.core.model.Job;
import io.quanta.core.placement.Placement;
import io.quanta.core.placement.PlacementRule;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Gang placement over a {@link GpuPool} (stateless, safe to share between threads): best-fit on one node when the job fits a node (fewest free GPUs left,
 * then lowest node id); otherwise the fewest nodes, preferring one rack. A job that must consolidate (see
 * {@link PlacementRule}) takes only a single node, or for jobs larger than a node the minimum number of nodes in one
 * rack; otherwise it accepts any spread. Deterministic: ties go to the lowest node id and GPU index.
 */
public final class Placer {

    private final PlacementRule rule;

    public Placer(PlacementRule rule) {
        this.rule = rule;
    }

    public PlacementRule rule() {
        return rule;
    }

    /** GPUs for all of {@code job}'s needs from the given layer of the pool, or empty when none fits the rule. */
    public Optional<Placement> place(Job job, GpuPool pool, Layer layer) {
        return place(job, pool, layer, rule.mustConsolidate(job));
    }

    /** Like {@link #place(Job, GpuPool, Layer)} with the consolidation requirement given explicitly. */
    public Optional<Placement> place(Job job, GpuPool pool, Layer layer, boolean consolidate) {
        int need = job.numGpus();
        if (need < 1 || (job.gpuType().isEmpty() && need > layerTotal(pool, layer))) {
            return Optional.empty();
        }
        CellIndex cell = pool.cell();
        int perNode = cell.maxPerNode(job.gpuType());
        if (perNode == 0) {
            return Optional.empty();
        }
        if (need <= perNode) {
            if (consolidate && knownToFail(job, pool, layer)) {
                return Optional.empty();
            }
            int node = bestFitNode(job, pool, layer, need);
            if (node >= 0) {
                long chosen = pool.pick(node, cell.modelMask(job.gpuType(), node), need, layer);
                return Optional.of(new Placement(ids(cell, node, chosen), 1, 1, false));
            }
            if (consolidate) {
                rememberFailure(job, pool, layer);
                return Optional.empty();
            }
        }
        int ideal = (need + perNode - 1) / perNode;
        List<int[]> counts = nodeCounts(job, pool, layer);
        List<int[]> rackBest = bestRack(counts, need, cell);
        if (consolidate) {
            return rackBest != null && rackBest.size() <= ideal
                    ? Optional.of(build(job, pool, layer, rackBest, false)) : Optional.empty();
        }
        List<int[]> global = greedy(counts, need);
        if (global == null) {
            return Optional.empty();
        }
        List<int[]> chosen = rackBest != null && rackBest.size() <= global.size() ? rackBest : global;
        boolean consolidated = chosen == rackBest && chosen.size() <= ideal && need > perNode;
        return Optional.of(build(job, pool, layer, chosen, rule.prefersConsolidation(job) && !consolidated));
    }

    /** Single-node failures are monotone in the size: see {@link GpuPool#knownSingleNodeFailure}. */
    private static boolean knownToFail(Job job, GpuPool pool, Layer layer) {
        return layer != Layer.VICTIMS && job.gpuType().isEmpty() && pool.knownSingleNodeFailure(layer, job.numGpus());
    }

    private static void rememberFailure(Job job, GpuPool pool, Layer layer) {
        if (layer != Layer.VICTIMS && job.gpuType().isEmpty()) {
            pool.rememberSingleNodeFailure(layer, job.numGpus());
        }
    }

    private static int layerTotal(GpuPool pool, Layer layer) {
        return switch (layer) {
            case FREE -> pool.totalFree();
            case SOON -> pool.totalFree() + pool.totalSoon();
            case VICTIMS -> pool.totalFree() + pool.totalSoon() + pool.totalVictim();
        };
    }

    private static int bestFitNode(Job job, GpuPool pool, Layer layer, int need) {
        CellIndex cell = pool.cell();
        if (job.gpuType().isPresent()) {
            return scanBestFit(job, pool, layer, need, null);
        }
        BitSet layered = pool.layeredNodes(layer);
        int bucketNode = -1;
        int bucketCount = Integer.MAX_VALUE;
        for (int c = need; c <= 64; c++) {
            int node = pool.firstWithFreeCount(c, layered);
            if (node >= 0) {
                bucketNode = node;
                bucketCount = c;
                break;
            }
        }
        int layeredNode = layered.isEmpty() ? -1 : scanBestFit(job, pool, layer, need, layered);
        if (layeredNode < 0) {
            return bucketNode;
        }
        int layeredCount = Long.bitCount(pool.mask(layeredNode, layer) & cell.modelMask(job.gpuType(), layeredNode));
        if (bucketNode < 0 || layeredCount < bucketCount || (layeredCount == bucketCount && layeredNode < bucketNode)) {
            return layeredNode;
        }
        return bucketNode;
    }

    private static int scanBestFit(Job job, GpuPool pool, Layer layer, int need, BitSet only) {
        CellIndex cell = pool.cell();
        int best = -1;
        int bestCount = Integer.MAX_VALUE;
        int n = cell.nodeCount();
        for (int node = only == null ? 0 : only.nextSetBit(0); node >= 0 && node < n;
             node = only == null ? node + 1 : only.nextSetBit(node + 1)) {
            int c = Long.bitCount(pool.mask(node, layer) & cell.modelMask(job.gpuType(), node));
            if (c >= need && c < bestCount) {
                best = node;
                bestCount = c;
            }
        }
        return best;
    }

    /** Nodes with available GPUs in the layer as {node, count}, most available first, then lowest node. */
    private static List<int[]> nodeCounts(Job job, GpuPool pool, Layer layer) {
        CellIndex cell = pool.cell();
        BitSet nodes = pool.candidateNodes(layer);
        int[] perCount = new int[66];
        int[] nodeOf = new int[nodes.cardinality()];
        int[] countOf = new int[nodeOf.length];
        int k = 0;
        for (int node = nodes.nextSetBit(0); node >= 0; node = nodes.nextSetBit(node + 1)) {
            int c = Long.bitCount(pool.mask(node, layer) & cell.modelMask(job.gpuType(), node));
            if (c > 0) {
                nodeOf[k] = node;
                countOf[k++] = c;
                perCount[c]++;
            }
        }
        int[] start = new int[66];
        for (int c = 64; c >= 1; c--) {
            start[c - 1] = start[c] + perCount[c];
        }
        int[][] sorted = new int[k][];
        for (int i = 0; i < k; i++) {
            sorted[start[countOf[i]]++] = new int[] {nodeOf[i], countOf[i]};
        }
        return java.util.Arrays.asList(sorted);
    }

    /** The rack reaching {@code need} with the fewest nodes (then fewest spare GPUs, then lowest rack), or null. */
    private static List<int[]> bestRack(List<int[]> counts, int need, CellIndex cell) {
        List<List<int[]>> byRack = new ArrayList<>();
        int[] sums = new int[cell.rackCount()];
        for (int r = 0; r < cell.rackCount(); r++) {
            byRack.add(new ArrayList<>());
        }
        for (int[] c : counts) {
            int rack = cell.rackOf(c[0]);
            if (sums[rack] < need) {
                byRack.get(rack).add(c);
                sums[rack] += c[1];
            }
        }
        List<int[]> best = null;
        int bestSpare = Integer.MAX_VALUE;
        for (int r = 0; r < byRack.size(); r++) {
            if (sums[r] < need) {
                continue;
            }
            int spare = sums[r] - need;
            List<int[]> nodes = byRack.get(r);
            if (best == null || nodes.size() < best.size() || (nodes.size() == best.size() && spare < bestSpare)) {
                best = nodes;
                bestSpare = spare;
            }
        }
        return best;
    }

    private static List<int[]> greedy(List<int[]> counts, int need) {
        List<int[]> chosen = new ArrayList<>();
        int sum = 0;
        for (int[] c : counts) {
            if (sum >= need) {
                break;
            }
            chosen.add(c);
            sum += c[1];
        }
        return sum >= need ? chosen : null;
    }

    private static Placement build(Job job, GpuPool pool, Layer layer, List<int[]> nodes, boolean relaxed) {
        CellIndex cell = pool.cell();
        List<GpuId> gpus = new ArrayList<>(job.numGpus());
        int left = job.numGpus();
        BitSet racks = new BitSet();
        List<int[]> sorted = new ArrayList<>(nodes);
        for (int[] c : sorted) {
            int take = Math.min(left, c[1]);
            long chosen = pool.pick(c[0], cell.modelMask(job.gpuType(), c[0]), take, layer);
            gpus.addAll(ids(cell, c[0], chosen));
            racks.set(cell.rackOf(c[0]));
            left -= take;
        }
        gpus.sort(Comparator.naturalOrder());
        return new Placement(gpus, nodes.size(), racks.cardinality(), relaxed);
    }

    private static List<GpuId> ids(CellIndex cell, int node, long mask) {
        List<GpuId> out = new ArrayList<>(Long.bitCount(mask));
        long bits = mask;
        while (bits != 0) {
            int index = Long.numberOfTrailingZeros(bits);
            out.add(cell.gpuId(node, index));
            bits &= bits - 1;
        }
        return out;
    }
}
