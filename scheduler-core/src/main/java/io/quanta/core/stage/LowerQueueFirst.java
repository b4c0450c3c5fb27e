package io.quanta.core.stage;

import io.quanta.core.model.Job;
import io.quanta.core.plan.Text;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * MLFQ preemption: a waiting job preempts running jobs of strictly lower-priority queues (higher level), lowest
 * queue and latest arrival first; running jobs are never preempted by peers of their own queue.
 */
public final class LowerQueueFirst implements PreemptionRule {

    private final String policy;
    private final LasRanking ranking;
    private final MultiLevelQueue queues;
    private final String[] thresholdTexts;

    public LowerQueueFirst(String policy, LasRanking ranking, MultiLevelQueue queues) {
        this.policy = policy;
        this.ranking = ranking;
        this.queues = queues;
        this.thresholdTexts = new String[Math.max(queues.queueCount(), 1)];
    }

    @Override
    public boolean eligible(Job running) {
        return true;
    }

    @Override
    public Comparator<Job> victimOrder() {
        return (a, b) -> ranking.order().compare(b, a);
    }

    /** The exact reverse of the ranking's order (a total order), with each level computed once. */
    @Override
    public void sortVictims(List<Job> candidates) {
        List<Job> sorted = ranking.sort(candidates);
        Collections.reverse(sorted);
        candidates.clear();
        candidates.addAll(sorted);
    }

    @Override
    public boolean mayPreempt(Job waiting, Job victim) {
        return ranking.level(victim) > ranking.level(waiting);
    }

    @Override
    public String reason(Job waiting, Job victim) {
        int level = ranking.level(victim);
        return policy + ": queue " + level + " job " + victim.id() + " preempted by queue " + ranking.level(waiting)
                + " job " + waiting.id() + " (attained " + Text.num(victim.attainedGpuSeconds()) + " GPU-s >= threshold "
                + thresholdText(level) + ")";
    }

    /** The lower threshold of a level as reason text, rendered once per level (bursts preempt hundreds of jobs). */
    private String thresholdText(int level) {
        if (level >= thresholdTexts.length) {
            return Text.num(level > 0 ? queues.thresholdOf(level - 1) : 0);
        }
        String text = thresholdTexts[level];
        if (text == null) {
            text = Text.num(level > 0 ? queues.thresholdOf(level - 1) : 0);
            thresholdTexts[level] = text;
        }
        return text;
    }
}
