package io.quanta.core.stage;

import io.quanta.core.model.Job;
import io.quanta.core.model.ServiceDistribution;
import io.quanta.core.plan.Text;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
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

    public GittinsRanking(LasRanking levels, MultiLevelQueue queues, ServiceDistribution distribution) {
        this.levels = levels;
        this.queues = queues;
        this.distribution = distribution;
    }

    /** The job's 2D-Gittins index G(a, D) with D = distance to the next threshold. */
    public double index(Job job) {
        return cache.computeIfAbsent(job.id(), id -> distribution.gittinsIndex(job.attainedGpuSeconds(),
                queues.distanceToNextThreshold(job.attainedGpuSeconds())));
    }

    @Override
    public Comparator<Job> order() {
        return Comparator.comparingInt(levels::level)
                .thenComparing(Comparator.comparingDouble(this::index).reversed())
                .thenComparing(Ranking.byArrival());
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
