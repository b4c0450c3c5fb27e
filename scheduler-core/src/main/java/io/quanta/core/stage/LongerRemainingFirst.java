package io.quanta.core.stage;

import io.quanta.core.model.Job;
import io.quanta.core.plan.Text;
import java.util.Comparator;

/** SRTF preemption: a waiting job preempts running jobs with strictly more remaining GPU-time, longest first. */
public final class LongerRemainingFirst implements PreemptionRule {

    private final String policy;

    public LongerRemainingFirst(String policy) {
        this.policy = policy;
    }

    @Override
    public boolean eligible(Job running) {
        return true;
    }

    @Override
    public Comparator<Job> victimOrder() {
        return (a, b) -> SrtfRanking.compare(b, a);
    }

    @Override
    public boolean mayPreempt(Job waiting, Job victim) {
        return SrtfRanking.remaining(victim) > SrtfRanking.remaining(waiting);
    }

    @Override
    public String reason(Job waiting, Job victim) {
        return policy + ": job " + victim.id() + " (remaining " + Text.num(SrtfRanking.remaining(victim))
                + " GPU-s) preempted by job " + waiting.id() + " (remaining " + Text.num(SrtfRanking.remaining(waiting))
                + " GPU-s)";
    }
}
