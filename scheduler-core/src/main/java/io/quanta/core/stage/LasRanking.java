package io.quanta.core.stage;

import io.quanta.core.model.Job;
import io.quanta.core.plan.Allocation;
import io.quanta.core.plan.Text;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;

/** Discretised 2D-LAS: lower queue level first (after this pass's queue changes), FIFO by arrival inside a queue. */
public final class LasRanking implements Ranking {

    private static final int INDEX_BITS = 17;
    private static final int SEQ_BITS = 40;
    private static final int LEVEL_BITS = 63 - SEQ_BITS - INDEX_BITS;

    private final MultiLevelQueue queues;
    private final Allocation alloc;
    /** Active jobs (waiting or holding GPUs) per effective level, counted on the first reason asked for. */
    private int[] activeByLevel;

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

    /**
     * Sorted with each job's effective level computed once (a level may be a map lookup). Usually as one primitive
     * sort of packed keys (level, arrival, position); when a key does not fit or two jobs share level and arrival
     * (the id decides then), through the object sort. Same total order either way.
     */
    @Override
    public List<Job> sort(List<Job> jobs) {
        List<Job> packed = packedSort(jobs);
        return packed != null ? packed : keyedSort(jobs);
    }

    private List<Job> packedSort(List<Job> jobs) {
        int n = jobs.size();
        if (n >= 1 << INDEX_BITS) {
            return null;
        }
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            Job j = jobs.get(i);
            int level = level(j);
            long seq = j.arrivalSeq();
            if (level < 0 || level >= 1 << LEVEL_BITS || seq < 0 || seq >= 1L << SEQ_BITS) {
                return null;
            }
            keys[i] = ((long) level << (SEQ_BITS + INDEX_BITS)) | (seq << INDEX_BITS) | i;
        }
        Arrays.sort(keys);
        List<Job> out = new ArrayList<>(n);
        long previous = -1;
        for (long key : keys) {
            long levelAndSeq = key >>> INDEX_BITS;
            if (levelAndSeq == previous) {
                return null;
            }
            previous = levelAndSeq;
            out.add(jobs.get((int) (key & ((1L << INDEX_BITS) - 1))));
        }
        return out;
    }

    private List<Job> keyedSort(List<Job> jobs) {
        Keyed[] keyed = new Keyed[jobs.size()];
        for (int i = 0; i < keyed.length; i++) {
            Job j = jobs.get(i);
            keyed[i] = new Keyed(level(j), j.arrivalSeq(), j);
        }
        Arrays.sort(keyed, LasRanking::compare);
        List<Job> out = new ArrayList<>(keyed.length);
        for (Keyed k : keyed) {
            out.add(k.job);
        }
        return out;
    }

    /** Sort keys next to each other, so comparisons do not chase every job's object. */
    private record Keyed(int level, long arrivalSeq, Job job) {
    }

    private static int compare(Keyed a, Keyed b) {
        if (a.level != b.level) {
            return a.level < b.level ? -1 : 1;
        }
        if (a.arrivalSeq != b.arrivalSeq) {
            return a.arrivalSeq < b.arrivalSeq ? -1 : 1;
        }
        return a.job.id().compareTo(b.job.id());
    }

    /** Level, then arrival, then id; hand-written because sorting thousands of jobs per pass is on the hot path. */
    private int compare(Job a, Job b) {
        int byLevel = Integer.compare(level(a), level(b));
        if (byLevel != 0) {
            return byLevel;
        }
        int bySeq = Long.compare(a.arrivalSeq(), b.arrivalSeq());
        return bySeq != 0 ? bySeq : a.id().compareTo(b.id());
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

    /**
     * A job above the lowest queue waits behind the jobs of lower queues, waiting or holding GPUs: they have less
     * attained service, so they rank ahead of it and it may not preempt them.
     */
    @Override
    public Optional<String> waitingReason(Job job) {
        int level = level(job);
        int lower = 0;
        for (int l = 0; l < level; l++) {
            lower += activeByLevel()[l];
        }
        if (lower == 0) {
            return Optional.empty();
        }
        return Optional.of("level " + level + " behind " + lower + " job" + (lower == 1 ? "" : "s")
                + " with less attained service");
    }

    private int[] activeByLevel() {
        if (activeByLevel == null) {
            activeByLevel = new int[queues.queueCount()];
            for (Job j : alloc.cell().snapshot().jobs()) {
                if (!j.state().isTerminal()) {
                    activeByLevel[level(j)]++;
                }
            }
        }
        return activeByLevel;
    }
}
