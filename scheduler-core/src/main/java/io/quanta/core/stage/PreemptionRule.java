package io.quanta.core.stage;

import io.quanta.core.model.Job;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Which running jobs a waiting job may preempt. {@link #victimOrder()} sorts candidates lowest priority first, and
 * {@link #mayPreempt} must hold for a prefix of that order (if it holds for a candidate, it holds for every earlier
 * one), which lets the planner count available victims in logarithmic time.
 */
public interface PreemptionRule {

    /** True when the running job can be a victim at all (e.g. its time slice expired). */
    boolean eligible(Job running);

    /** Candidates, lowest priority (first to preempt) first; total order. */
    Comparator<Job> victimOrder();

    /** Sorts {@code candidates} in {@link #victimOrder()}; rules with costly keys override it to compute each once. */
    default void sortVictims(List<Job> candidates) {
        candidates.sort(victimOrder());
    }

    /** True when {@code waiting} outranks {@code victim} under this rule. */
    boolean mayPreempt(Job waiting, Job victim);

    /**
     * True (the default) when {@link #mayPreempt} holds for a prefix of {@link #victimOrder()}; rules that return
     * false are scanned linearly.
     */
    default boolean prefixMonotone() {
        return true;
    }

    /**
     * A prefix-monotone rule over the same victim order that allows every preemption this one allows, or empty when
     * none is known: the planner reads it to skip the candidates past its prefix, which this rule refuses too, and to
     * see at once that a waiting job may preempt nobody (a job of the last queue under the queues' rule, whatever the
     * gates narrowing it). This rule itself when it is prefix-monotone.
     */
    default Optional<PreemptionRule> monotoneBound() {
        return prefixMonotone() ? Optional.of(this) : Optional.empty();
    }

    /** Reason of the suspension, naming the rule, e.g. {@code "tiresias-las: queue 1 job j7 preempted by ..."}. */
    String reason(Job waiting, Job victim);
}
