package io.quanta.core.stage;

import io.quanta.core.model.Job;
import java.util.Comparator;
import java.util.SortedMap;

/**
 * Queue-order stage: the priority order of waiting jobs (highest first, total: ties end with arrival sequence and
 * id) and how to describe a job's rank in reasons and audit details.
 */
public interface Ranking {

    /** Order of waiting jobs, highest priority first. */
    Comparator<Job> order();

    /** Short rank text for reasons, e.g. {@code "queue 0, attained 120 GPU-s"}. */
    String describe(Job job);

    /** Audit details of a job's rank (sorted keys). */
    SortedMap<String, String> details(Job job);

    /** The tie-break every ranking ends with: arrival sequence, then id. */
    static Comparator<Job> byArrival() {
        return Comparator.comparingLong(Job::arrivalSeq).thenComparing(Job::id);
    }
}
