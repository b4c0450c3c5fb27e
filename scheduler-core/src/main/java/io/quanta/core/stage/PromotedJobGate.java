package io.quanta.core.stage;

import io.quanta.core.model.Job;
import io.quanta.core.plan.Text;

/**
 * A job the starvation knob promoted (its queue is above the one its attained service belongs to) may preempt only
 * running jobs that attained more service than it has, by a factor: {@code victim > margin x promoted}. The knob is a
 * guard against starvation: it lets a job that waited long take GPUs back from jobs that are ahead of it, not from jobs
 * that are behind it. Without this, among many alike long jobs a promoted job preempts one that ran less, that one is
 * promoted in turn after knob x its short run, and the jobs take turns: each turn pays a suspend and a resume, and
 * round-robin among equal jobs is the order that finishes all of them last. A margin above 1 is hysteresis: two alike
 * jobs no longer swap at every promotion, since after one preempted the other, the other needs {@code margin} times
 * the first's service to take the GPUs back.
 */
public final class PromotedJobGate extends PreemptionGate {

    private final LasRanking levels;
    private final MultiLevelQueue queues;
    private final double margin;

    /** @param margin the factor by which a victim's attained service must exceed the promoted job's, >= 1 */
    public PromotedJobGate(PreemptionRule inner, LasRanking levels, MultiLevelQueue queues, double margin) {
        super(inner);
        if (!(margin >= 1)) {
            throw new IllegalArgumentException("margin must be >= 1, got " + margin);
        }
        this.levels = levels;
        this.queues = queues;
        this.margin = margin;
    }

    /** Whether the job sits in a higher queue than its attained service belongs to (the knob promoted it). */
    public boolean promoted(Job job) {
        return levels.level(job) < Math.min(queues.levelFor(job.attainedGpuSeconds()), queues.queueCount() - 1);
    }

    @Override
    protected boolean admits(Job waiting, Job victim) {
        return !promoted(waiting) || victim.attainedGpuSeconds() > margin * waiting.attainedGpuSeconds();
    }

    @Override
    protected String reasonSuffix(Job waiting, Job victim) {
        return promoted(waiting) ? "; promoted job attained " + (margin == 1 ? "" : Text.num(margin) + " x ")
                + Text.num(waiting.attainedGpuSeconds()) + " < " + Text.num(victim.attainedGpuSeconds()) + " GPU-s"
                : "";
    }
}
