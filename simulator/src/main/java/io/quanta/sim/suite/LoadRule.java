package io.quanta.sim.suite;

import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.trace.Trace;
import java.util.ArrayList;
import java.util.List;

/**
 * The fixed rule that gives each suite input its cluster sizes, computed from the trace alone (never tuned): on a
 * fixed ladder of cluster shapes (8-GPU servers, at most 16 servers per rack), the {@link FifoLoadProbe} measures how
 * long fifo makes jobs queue, in multiples of the trace's mean service time.
 * <ul>
 *   <li><b>heavy</b>: the largest size at which fifo queues at least {@value #HEAVY} mean services (the most GPUs at
 *       which the load is still heavy); the smallest size that holds the largest job when even that one queues less;
 *   </li>
 *   <li><b>moderate</b>: the smallest size above it at which fifo queues at most {@value #MODERATE} mean services;
 *       the largest size of the ladder when none does.</li>
 * </ul>
 * The developers' slice gets 2x12x8 (heavy) and 2x16x8 (moderate), the sizes chosen by hand before.
 */
public final class LoadRule {

    /** Heavy load: fifo's average queueing at least this many mean services. */
    public static final double HEAVY = 2.0;
    /** Moderate load: fifo's average queueing at most this many mean services. */
    public static final double MODERATE = 0.5;

    /** The ladder, smallest first: 16 to 768 GPUs in steps of 12% to 50%. */
    public static final List<ClusterShape> LADDER = List.of(
            shape(1, 2), shape(1, 3), shape(1, 4), shape(1, 6), shape(1, 8), shape(1, 12), shape(1, 16),
            shape(2, 10), shape(2, 12), shape(2, 14), shape(2, 16), shape(3, 12), shape(3, 14), shape(3, 16),
            shape(4, 14), shape(4, 16), shape(5, 16), shape(6, 16));

    /**
     * The sizes chosen for one trace, with fifo's queueing ratio at each rung that holds its largest job.
     *
     * @param heavy the heavy-load size
     * @param moderate the moderate-load size
     * @param ratios fifo's average queueing over the mean service, per rung from the smallest that fits
     */
    public record Choice(ClusterShape heavy, ClusterShape moderate, List<Rung> ratios) {
        public Choice {
            ratios = List.copyOf(ratios);
        }

        /** fifo's queueing ratio at {@code shape}, NaN when the shape was not measured. */
        public double ratioAt(ClusterShape shape) {
            return ratios.stream().filter(r -> r.shape().equals(shape)).mapToDouble(Rung::ratio).findFirst()
                    .orElse(Double.NaN);
        }
    }

    /** One rung: a shape and fifo's queueing ratio there. */
    public record Rung(ClusterShape shape, double ratio) {
    }

    private LoadRule() {
    }

    /** The heavy and moderate sizes of {@code trace}. */
    public static Choice choose(Trace trace) {
        List<Rung> rungs = new ArrayList<>();
        for (ClusterShape shape : LADDER) {
            if (shape.totalGpus() >= trace.maxGpus()) {
                rungs.add(new Rung(shape, FifoLoadProbe.queueingRatio(trace, shape.totalGpus())));
            }
        }
        if (rungs.isEmpty()) {
            throw new IllegalArgumentException("trace " + trace.name() + " has a job of " + trace.maxGpus()
                    + " GPUs, more than the largest size of the ladder");
        }
        int heavy = 0;
        for (int i = 0; i < rungs.size(); i++) {
            if (rungs.get(i).ratio() >= HEAVY) {
                heavy = i;
            }
        }
        int moderate = rungs.size() - 1;
        for (int i = heavy + 1; i < rungs.size(); i++) {
            if (rungs.get(i).ratio() <= MODERATE) {
                moderate = i;
                break;
            }
        }
        return new Choice(rungs.get(heavy).shape(), rungs.get(moderate).shape(), rungs);
    }

    private static ClusterShape shape(int racks, int servers) {
        return new ClusterShape(racks, servers, 8);
    }
}
