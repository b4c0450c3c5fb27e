package io.quanta.core.stage;

import io.quanta.core.model.Job;
import io.quanta.core.model.ServiceDistribution;
import io.quanta.core.plan.Text;
import java.util.Comparator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;

/**
 * Discretised 2D-Gittins: lower queue level first; inside a queue, higher 2D-Gittins index first, computed from the
 * completed-job service distribution with the look-ahead set to the distance to the job's next queue threshold.
 */
public final class GittinsRanking implements Ranking {

    private final LasRanking levels;
    private final MultiLevelQueue queues;
    private final ServiceDistribution distribution;
    private final Map<String, Double> cache = new HashMap<>();
    /** The level ordered by arrival instead of by index, or -1 for none. */
    private final int fifoLevel;

    public GittinsRanking(LasRanking levels, MultiLevelQueue queues, ServiceDistribution distribution) {
        this(levels, queues, distribution, false);
    }

    /**
     * @param fifoLastQueue true to order the last queue by arrival (Tiresias' FIFO) and only the queues above it by
     *     index: in the last queue the index puts the jobs that attained the most service, whose index the cell's
     *     completed jobs put at or near 0, behind every job demoted after them, so the longest jobs wait longest
     */
    public GittinsRanking(LasRanking levels, MultiLevelQueue queues, ServiceDistribution distribution,
                          boolean fifoLastQueue) {
        this.levels = levels;
        this.queues = queues;
        this.distribution = distribution;
        this.fifoLevel = fifoLastQueue ? queues.queueCount() - 1 : -1;
    }

    /** The job's 2D-Gittins index G(a, D) with D = distance to the next threshold. */
    public double index(Job job) {
        return cache.computeIfAbsent(job.id(), id -> distribution.gittinsIndex(job.attainedGpuSeconds(),
                queues.distanceToNextThreshold(job.attainedGpuSeconds())));
    }

    @Override
    public Comparator<Job> order() {
        return (a, b) -> compare(levels.level(a), key(a), a, levels.level(b), key(b), b);
    }

    /** The index that orders the job inside its queue: 0 for every job of the FIFO level (arrival decides). */
    private double key(Job job) {
        return levels.level(job) == fifoLevel ? 0 : index(job);
    }

    /** Sorts with each job's level and index computed once. */
    @Override
    public List<Job> sort(List<Job> jobs) {
        record Keyed(Job job, int level, double index) {
        }
        List<Keyed> keyed = new ArrayList<>(jobs.size());
        for (Job j : jobs) {
            int level = levels.level(j);
            keyed.add(new Keyed(j, level, level == fifoLevel ? 0 : index(j)));
        }
        keyed.sort((a, b) -> compare(a.level(), a.index(), a.job(), b.level(), b.index(), b.job()));
        List<Job> out = new ArrayList<>(keyed.size());
        keyed.forEach(k -> out.add(k.job()));
        return out;
    }

    private static int compare(int levelA, double indexA, Job a, int levelB, double indexB, Job b) {
        if (levelA != levelB) {
            return Integer.compare(levelA, levelB);
        }
        int byIndex = Double.compare(indexB, indexA);
        if (byIndex != 0) {
            return byIndex;
        }
        int bySeq = Long.compare(a.arrivalSeq(), b.arrivalSeq());
        return bySeq != 0 ? bySeq : a.id().compareTo(b.id());
    }

    /** Queues still come first: the reason of the levels. */
    @Override
    public Optional<String> waitingReason(Job job) {
        return levels.waitingReason(job);
    }

    @Override
    public String describe(Job job) {
        return "queue " + levels.level(job) + ", Gittins index " + String.format(java.util.Locale.ROOT, "%.6g",
                index(job)) + ", attained " + Text.num(job.attainedGpuSeconds()) + " GPU-s";
    }

    @Override
    public SortedMap<String, String> details(Job job) {
        SortedMap<String, String> d = levels.details(job);
        d.put("gittinsIndex", String.format(java.util.Locale.ROOT, "%.6g", index(job)));
        return d;
    }
}
