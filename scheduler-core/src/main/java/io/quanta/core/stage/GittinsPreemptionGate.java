package io.quanta.core.stage;

import io.quanta.core.model.Job;
import java.util.Comparator;
import java.util.List;

/**
 * Preempt only when it pays: a waiting job may preempt a running job that the queue rule lets it preempt only when its
 * 2D-Gittins index (learned from the cell's completed jobs, look-ahead to its next queue threshold) is higher than
 * the victim's. Queue levels alone make every job that crosses a threshold lose to every new job; when the cell's
 * jobs say that a job just past a threshold is likely to finish soon (a sweep of equal jobs that all cross 3,250
 * GPU-s shortly before they end), suspending it to start a new job of unknown length delays both and pays a suspend
 * and a resume. The index is the expected chance of finishing per unit of service spent, so the comparison is the
 * Gittins rule itself applied to the pair.
 */
public final class GittinsPreemptionGate implements PreemptionRule {

    private final PreemptionRule inner;
    private final GittinsRanking index;

    public GittinsPreemptionGate(PreemptionRule inner, GittinsRanking index) {
        this.inner = inner;
        this.index = index;
    }

    @Override
    public boolean eligible(Job running) {
        return inner.eligible(running);
    }

    @Override
    public Comparator<Job> victimOrder() {
        return inner.victimOrder();
    }

    @Override
    public void sortVictims(List<Job> candidates) {
        inner.sortVictims(candidates);
    }

    @Override
    public boolean mayPreempt(Job waiting, Job victim) {
        return inner.mayPreempt(waiting, victim) && index.index(waiting) > index.index(victim);
    }

    /** The index gate breaks the prefix property of the queue rule: candidates are scanned one by one. */
    @Override
    public boolean prefixMonotone() {
        return false;
    }

    @Override
    public String reason(Job waiting, Job victim) {
        return inner.reason(waiting, victim) + "; Gittins index " + g(index.index(waiting)) + " > "
                + g(index.index(victim));
    }

    private static String g(double v) {
        return String.format(java.util.Locale.ROOT, "%.3g", v);
    }
}
