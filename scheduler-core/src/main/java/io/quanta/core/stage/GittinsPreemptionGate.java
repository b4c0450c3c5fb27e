package io.quanta.core.stage;

import io.quanta.core.model.Job;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Preempt only when it pays: a waiting job may preempt a running job that the queue rule lets it preempt only when its
 * 2D-Gittins index (learned from the cell's completed jobs, look-ahead to its next queue threshold) is higher than
 * the victim's. Queue levels alone make every job that crosses a threshold lose to every new job; when the cell's
 * jobs say that a job just past a threshold is likely to finish soon (a sweep of equal jobs that all cross 3,250
 * GPU-s shortly before they end), suspending it to start a new job of unknown length delays both and pays a suspend
 * and a resume. The index is the expected chance of finishing per unit of service spent, so the comparison is the
 * Gittins rule itself applied to the pair. By default it compares the indices that order the queues, whose look-ahead
 * ends at each job's next threshold; {@link LookAhead} can compare the index over every look-ahead instead
 * ({@code quanta.gate-index}), which is 0 only for a job that outlived every job its estimate holds.
 */
public final class GittinsPreemptionGate extends PreemptionGate {

    /** Which index the gate compares ({@code quanta.gate-index}). */
    public enum LookAhead {
        /** The index that orders the queues: look-ahead to each job's next queue threshold. */
        THRESHOLD,
        /** The Gittins index proper, over every look-ahead ({@link GittinsRanking#bestIndex}). */
        BEST,
        /**
         * The queues' index, except for a waiting job whose queues' index is 0 (no like job ended within its
         * look-ahead): that job and its victim are compared by their index over every look-ahead.
         */
        BEST_WHEN_ZERO
    }

    private final GittinsRanking index;
    private final boolean prefix;
    private final LookAhead lookAhead;
    /** With {@code prefix}: each candidate's highest queues' index of itself and every candidate before it. */
    private final Map<String, Double> guard = new HashMap<>();
    /** The same for the index over every look-ahead. */
    private final Map<String, Double> bestGuard = new HashMap<>();

    /**
     * @param prefix false: the waiting job must beat the victim's index; true: it must beat the index of the victim
     *     and of every candidate before it in the queue rule's victim order, so that the scan of victims stops at the
     *     first job the waiting job does not beat, as Tiresias' own order would (the latest arrivals of the lowest
     *     queue first), instead of reaching past it to the oldest, longest jobs
     */
    public GittinsPreemptionGate(PreemptionRule inner, GittinsRanking index, boolean prefix) {
        this(inner, index, prefix, LookAhead.THRESHOLD);
    }

    /** @param lookAhead which index the gate compares */
    public GittinsPreemptionGate(PreemptionRule inner, GittinsRanking index, boolean prefix, LookAhead lookAhead) {
        super(inner);
        this.index = index;
        this.prefix = prefix;
        this.lookAhead = lookAhead;
    }

    @Override
    protected void sorted(List<Job> candidates) {
        if (!prefix) {
            return;
        }
        guard.clear();
        bestGuard.clear();
        double highest = Double.NEGATIVE_INFINITY;
        double highestBest = Double.NEGATIVE_INFINITY;
        for (Job c : candidates) {
            highest = Math.max(highest, index.index(c));
            guard.put(c.id(), highest);
            if (lookAhead != LookAhead.THRESHOLD) {
                highestBest = Math.max(highestBest, index.bestIndex(c));
                bestGuard.put(c.id(), highestBest);
            }
        }
    }

    @Override
    protected boolean admits(Job waiting, Job victim) {
        return best(waiting) ? index.bestIndex(waiting) > bar(victim, true) : index.index(waiting) > bar(victim, false);
    }

    /** True when {@code waiting} and its victims are compared by the index over every look-ahead. */
    private boolean best(Job waiting) {
        return switch (lookAhead) {
            case THRESHOLD -> false;
            case BEST -> true;
            case BEST_WHEN_ZERO -> index.index(waiting) == 0;
        };
    }

    private double bar(Job victim, boolean best) {
        double own = best ? index.bestIndex(victim) : index.index(victim);
        return prefix ? (best ? bestGuard : guard).getOrDefault(victim.id(), own) : own;
    }

    @Override
    protected String reasonSuffix(Job waiting, Job victim) {
        boolean best = best(waiting);
        double own = best ? index.bestIndex(victim) : index.index(victim);
        return "; Gittins index" + (best ? " (best look-ahead) " : " ")
                + g(best ? index.bestIndex(waiting) : index.index(waiting)) + " > " + g(bar(victim, best))
                + (prefix && bar(victim, best) > own ? " (of a job before it in victim order)" : "");
    }

    private static String g(double v) {
        return String.format(java.util.Locale.ROOT, "%.3g", v);
    }
}
