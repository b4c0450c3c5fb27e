package io.quanta.node.runner;

import java.util.Comparator;
import java.util.Objects;

/**
 * One attempt of a job: the scheduler starts attempt 1, and a new attempt after each suspension or failure.
 *
 * @param jobId the job
 * @param attempt the attempt number, at least 0
 */
public record AttemptId(String jobId, int attempt) implements Comparable<AttemptId> {

    private static final Comparator<AttemptId> ORDER =
            Comparator.comparing(AttemptId::jobId).thenComparingInt(AttemptId::attempt);

    public AttemptId {
        Objects.requireNonNull(jobId, "jobId");
        if (jobId.isEmpty()) {
            throw new IllegalArgumentException("jobId must not be empty");
        }
        if (attempt < 0) {
            throw new IllegalArgumentException("attempt must be >= 0, got " + attempt + " for job " + jobId);
        }
    }

    @Override
    public int compareTo(AttemptId other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return jobId + "#" + attempt;
    }
}
