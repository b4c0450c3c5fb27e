package io.quanta.core.stage;

import io.quanta.core.model.Job;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * A preemption rule narrowed by one more condition: the inner rule's victims, in its order, of which a waiting job may
 * preempt only those {@link #admits} lets it. The condition depends on the waiting job, so candidates are scanned one
 * by one, within the inner rule's prefix where the inner rule is prefix-monotone ({@link #monotoneBound}).
 */
public abstract class PreemptionGate implements PreemptionRule {

    private final PreemptionRule inner;

    protected PreemptionGate(PreemptionRule inner) {
        this.inner = inner;
    }

    /** The extra condition: whether {@code waiting} may preempt {@code victim} that the inner rule lets it preempt. */
    protected abstract boolean admits(Job waiting, Job victim);

    /** What the gate adds to the inner rule's reason, empty for nothing. */
    protected abstract String reasonSuffix(Job waiting, Job victim);

    @Override
    public final boolean eligible(Job running) {
        return inner.eligible(running);
    }

    @Override
    public final Comparator<Job> victimOrder() {
        return inner.victimOrder();
    }

    @Override
    public final void sortVictims(List<Job> candidates) {
        inner.sortVictims(candidates);
        sorted(candidates);
    }

    /** Called with the candidates of a pass in victim order, for a gate whose condition depends on that order. */
    protected void sorted(List<Job> candidates) {
    }

    @Override
    public final boolean mayPreempt(Job waiting, Job victim) {
        return inner.mayPreempt(waiting, victim) && admits(waiting, victim);
    }

    @Override
    public final boolean prefixMonotone() {
        return false;
    }

    /** The inner rule's bound: the gate only narrows the inner rule, in the inner rule's victim order. */
    @Override
    public final Optional<PreemptionRule> monotoneBound() {
        return inner.monotoneBound();
    }

    @Override
    public final String reason(Job waiting, Job victim) {
        return inner.reason(waiting, victim) + reasonSuffix(waiting, victim);
    }
}
