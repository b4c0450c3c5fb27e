package io.quanta.core.stage;

import io.quanta.core.model.Job;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
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

    /**
     * What in this order keeps {@code job} from GPUs that others hold, for the reason of a job that lacks free GPUs
     * (e.g. {@code "level 2 behind 12 jobs with less attained service"}), or empty when the order says nothing more
     * than the job's rank. Text only: it decides nothing.
     */
    default Optional<String> waitingReason(Job job) {
        return Optional.empty();
    }

    /** {@code jobs} in this order (a new list); rankings with costly keys override it to compute each key once. */
    default List<Job> sort(List<Job> jobs) {
        List<Job> out = new ArrayList<>(jobs);
        out.sort(order());
        return out;
    }

    /** The tie-break every ranking ends with: arrival sequence, then id. */
    static Comparator<Job> byArrival() {
        return Comparator.comparingLong(Job::arrivalSeq).thenComparing(Job::id);
    }
}
