package io.quanta.core.stage;

import io.quanta.core.model.Job;
import io.quanta.core.plan.Text;
import java.util.Comparator;

/**
 * Gandiva time slicing: running jobs whose current run has lasted at least one quantum may be suspended (at their
 * next minibatch boundary) for a waiting job, longest-running first.
 */
public final class ExpiredSliceFirst implements PreemptionRule {

    private static final double EPS = 1e-6;

    private final String policy;
    private final double quantumSeconds;

    public ExpiredSliceFirst(String policy, double quantumSeconds) {
        this.policy = policy;
        this.quantumSeconds = quantumSeconds;
    }

    @Override
    public boolean eligible(Job running) {
        return running.executedSeconds() >= quantumSeconds - EPS;
    }

    @Override
    public Comparator<Job> victimOrder() {
        return Comparator.comparingDouble(Job::executedSeconds).reversed()
                .thenComparing(Ranking.byArrival().reversed());
    }

    @Override
    public boolean mayPreempt(Job waiting, Job victim) {
        return true;
    }

    @Override
    public String reason(Job waiting, Job victim) {
        return policy + ": time slice of job " + victim.id() + " ended (ran " + Text.num(victim.executedSeconds())
                + " s >= quantum " + Text.num(quantumSeconds) + " s); GPUs go to waiting job " + waiting.id()
                + " (waited " + Text.num(waiting.waitingSeconds()) + " s)";
    }
}
