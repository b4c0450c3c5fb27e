package io.quanta.core.stage;

import io.quanta.core.model.Job;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Preempt only when it pays: a waiting job may preempt a running job that the queue rule lets it preempt only when its
 * 2D-Gittins index (learned from the cell's completed jobs, look-ahead to its next queue threshold) is higher than
 * the victim's. Queue levels alone make every job that crosses a threshold lose to every new job; when the cell's
 * jobs say that a job just past a threshold is likely to finish soon (a sweep of equal jobs that all cross 3,250
 * GPU-s shortly before they end), suspending it to start a new job of unknown length delays both and pays a suspend
 * and a resume. The index is the expected chance of finishing per unit of service spent, so the comparison is the
 * Gittins rule itself applied to the pair.
 */
public final class GittinsPreemptionGate extends PreemptionGate {

    private final ToDoubleFunction<Job> index;
    private final boolean prefix;
    private final boolean best;
    /** With {@code prefix}: each candidate's highest index of itself and every candidate before it in victim order. */
    private final Map<String, Double> guard = new HashMap<>();

    /**
     * @param prefix false: the waiting job must beat the victim's index; true: it must beat the index of the victim
     *     and of every candidate before it in the queue rule's victim order, so that the scan of victims stops at the
     *     first job the waiting job does not beat, as Tiresias' own order would (the latest arrivals of the lowest
     *     queue first), instead of reaching past it to the oldest, longest jobs
     */
    public GittinsPreemptionGate(PreemptionRule inner, GittinsRanking index, boolean prefix) {
        this(inner, index, prefix, false);
    }

    /**
     * @param best true to compare each job's index over every look-ahead ({@link GittinsRanking#bestIndex}, {@code
     *     quanta.gate-index=best}), false to compare the indices that order the queues, whose look-ahead ends at each
     *     job's next queue threshold
     */
    public GittinsPreemptionGate(PreemptionRule inner, GittinsRanking index, boolean prefix, boolean best) {
        super(inner);
        this.index = best ? index::bestIndex : index::index;
        this.prefix = prefix;
        this.best = best;
    }

    @Override
    protected void sorted(List<Job> candidates) {
        if (!prefix) {
            return;
        }
        guard.clear();
        double highest = Double.NEGATIVE_INFINITY;
        for (Job c : candidates) {
            highest = Math.max(highest, index.applyAsDouble(c));
            guard.put(c.id(), highest);
        }
    }

    @Override
    protected boolean admits(Job waiting, Job victim) {
        return index.applyAsDouble(waiting) > bar(victim);
    }

    private double bar(Job victim) {
        return prefix ? guard.getOrDefault(victim.id(), index.applyAsDouble(victim)) : index.applyAsDouble(victim);
    }

    @Override
    protected String reasonSuffix(Job waiting, Job victim) {
        return "; Gittins index" + (best ? " (best look-ahead) " : " ") + g(index.applyAsDouble(waiting)) + " > "
                + g(bar(victim))
                + (prefix && bar(victim) > index.applyAsDouble(victim) ? " (of a job before it in victim order)" : "");
    }

    private static String g(double v) {
        return String.format(java.util.Locale.ROOT, "%.3g", v);
    }
}
