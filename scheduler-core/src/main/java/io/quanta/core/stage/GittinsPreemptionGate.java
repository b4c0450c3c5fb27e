package io.quanta.core.stage;

import io.quanta.core.model.Job;

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

    private final GittinsRanking index;

    public GittinsPreemptionGate(PreemptionRule inner, GittinsRanking index) {
        super(inner);
        this.index = index;
    }

    @Override
    protected boolean admits(Job waiting, Job victim) {
        return index.index(waiting) > index.index(victim);
    }

    @Override
    protected String reasonSuffix(Job waiting, Job victim) {
        return "; Gittins index " + g(index.index(waiting)) + " > " + g(index.index(victim));
    }

    private static String g(double v) {
        return String.format(java.util.Locale.ROOT, "%.3g", v);
    }
}
