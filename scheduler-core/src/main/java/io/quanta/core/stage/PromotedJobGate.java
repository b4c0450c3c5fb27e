package io.quanta.core.stage;

import io.quanta.core.model.Job;
import io.quanta.core.plan.Text;

/**
 * A job the starvation knob promoted (its queue is above the one its attained service belongs to) may preempt only
 * running jobs that attained more service than it has. The knob is a guard against starvation: it lets a job that
 * waited long take GPUs back from jobs that are ahead of it, not from jobs that are behind it. Without this, among many
 * alike long jobs a promoted job preempts one that ran less, that one is promoted in turn after knob x its short run,
 * and the jobs take turns: each turn pays a suspend and a resume, and round-robin among equal jobs is the order that
 * finishes all of them last.
 */
public final class PromotedJobGate extends PreemptionGate {

    private final LasRanking levels;
    private final MultiLevelQueue queues;

    public PromotedJobGate(PreemptionRule inner, LasRanking levels, MultiLevelQueue queues) {
        super(inner);
        this.levels = levels;
        this.queues = queues;
    }

    /** Whether the job sits in a higher queue than its attained service belongs to (the knob promoted it). */
    public boolean promoted(Job job) {
        return levels.level(job) < Math.min(queues.levelFor(job.attainedGpuSeconds()), queues.queueCount() - 1);
    }

    @Override
    protected boolean admits(Job waiting, Job victim) {
        return !promoted(waiting) || victim.attainedGpuSeconds() > waiting.attainedGpuSeconds();
    }

    @Override
    protected String reasonSuffix(Job waiting, Job victim) {
        return promoted(waiting) ? "; promoted job attained " + Text.num(waiting.attainedGpuSeconds()) + " < "
                + Text.num(victim.attainedGpuSeconds()) + " GPU-s" : "";
    }
}
