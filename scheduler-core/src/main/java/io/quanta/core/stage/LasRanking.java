package io.quanta.core.stage;

import io.quanta.core.model.Job;
import io.quanta.core.plan.Allocation;
import io.quanta.core.plan.Text;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SortedMap;

/** Discretised 2D-LAS: lower queue level first (after this pass's queue changes), FIFO by arrival inside a queue. */
public final class LasRanking implements Ranking {

    private final MultiLevelQueue queues;
    private final Allocation alloc;

    public LasRanking(MultiLevelQueue queues, Allocation alloc) {
        this.queues = queues;
        this.alloc = alloc;
    }

    /** Effective level: this pass's queue change if any, else the stored level clamped to the queue count. */
    public int level(Job job) {
        return Math.min(alloc.level(job), queues.queueCount() - 1);
    }

    @Override
    public Comparator<Job> order() {
        return this::compare;
    }

    /** Sorted with each job's effective level computed once (a level may be a map lookup). */
    @Override
    public List<Job> sort(List<Job> jobs) {
        Keyed[] keyed = new Keyed[jobs.size()];
        for (int i = 0; i < keyed.length; i++) {
            Job j = jobs.get(i);
            keyed[i] = new Keyed(level(j), j);
        }
        Arrays.sort(keyed, LasRanking::compare);
        List<Job> out = new ArrayList<>(keyed.length);
        for (Keyed k : keyed) {
            out.add(k.job);
        }
        return out;
    }

    private record Keyed(int level, Job job) {
    }

    private static int compare(Keyed a, Keyed b) {
        int byLevel = Integer.compare(a.level, b.level);
        return byLevel != 0 ? byLevel : byArrivalThenId(a.job, b.job);
    }

    private static int byArrivalThenId(Job a, Job b) {
        int bySeq = Long.compare(a.arrivalSeq(), b.arrivalSeq());
        return bySeq != 0 ? bySeq : a.id().compareTo(b.id());
    }

    /** Level, then arrival, then id; hand-written because sorting thousands of jobs per pass is on the hot path. */
    private int compare(Job a, Job b) {
        int byLevel = Integer.compare(level(a), level(b));
        if (byLevel != 0) {
            return byLevel;
        }
        return byArrivalThenId(a, b);
    }

    @Override
    public String describe(Job job) {
        return "queue " + level(job) + ", attained " + Text.num(job.attainedGpuSeconds()) + " GPU-s";
    }

    @Override
    public SortedMap<String, String> details(Job job) {
        return Text.details("level", Integer.toString(level(job)),
                "attainedGpuSeconds", Text.num(job.attainedGpuSeconds()));
    }
}
