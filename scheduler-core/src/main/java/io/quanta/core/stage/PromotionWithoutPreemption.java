package io.quanta.core.stage;

import io.quanta.core.model.Job;
import java.util.Comparator;
import java.util.List;

/**
 * The starvation knob without a preemption storm: a job the knob promoted goes first for free GPUs (its promoted
 * level ranks it), but preempts only the running jobs that its <em>attained service</em> would let it preempt, i.e.
 * jobs of a lower queue than the one its attained service puts it in. Under Tiresias' rule a promoted long job
 * preempts a running long job of its old queue, which waits, is promoted in turn and preempts the next: long jobs
 * take turns, each turn paying a suspend and a resume, and the mean JCT of the long jobs grows as under processor
 * sharing. Jobs that were not promoted preempt exactly as under {@link LowerQueueFirst}.
 */
public final class PromotionWithoutPreemption implements PreemptionRule {

    private final LowerQueueFirst inner;
    private final LasRanking ranking;
    private final MultiLevelQueue queues;

    public PromotionWithoutPreemption(LowerQueueFirst inner, LasRanking ranking, MultiLevelQueue queues) {
        this.inner = inner;
        this.ranking = ranking;
        this.queues = queues;
    }

    /** The queue the job's attained service puts it in, or its effective queue when that is lower (later). */
    int preemptingLevel(Job waiting) {
        int natural = Math.min(queues.levelFor(waiting.attainedGpuSeconds()), queues.queueCount() - 1);
        return Math.max(natural, ranking.level(waiting));
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
        return ranking.level(victim) > preemptingLevel(waiting);
    }

    @Override
    public String reason(Job waiting, Job victim) {
        return inner.reason(waiting, victim);
    }
}
