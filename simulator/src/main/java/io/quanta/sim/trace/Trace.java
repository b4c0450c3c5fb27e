package io.quanta.sim.trace;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * An immutable list of trace jobs sorted by submit time (ties in file order), with unique ids.
 *
 * @param name a label, normally the file name
 * @param jobs the jobs, sorted by {@link TraceJob#submitSeconds()}
 */
public record Trace(String name, List<TraceJob> jobs) {

    public Trace {
        Objects.requireNonNull(name, "name");
        jobs = List.copyOf(jobs);
        Set<String> ids = new HashSet<>();
        long previous = Long.MIN_VALUE;
        for (TraceJob job : jobs) {
            if (!ids.add(job.jobId())) {
                throw new IllegalArgumentException("trace " + name + ": duplicate job id " + job.jobId());
            }
            if (job.submitSeconds() < previous) {
                throw new IllegalArgumentException("trace " + name + ": job " + job.jobId()
                        + " is not sorted by submit time");
            }
            previous = job.submitSeconds();
        }
    }

    /** Number of jobs. */
    public int size() {
        return jobs.size();
    }

    /** The first {@code n} jobs (all if {@code n} is larger). */
    public Trace first(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("n must be >= 0, got " + n);
        }
        return n >= jobs.size() ? this : new Trace(name + " (first " + n + ")", jobs.subList(0, n));
    }

    /** Sum of the jobs' service in GPU-seconds. */
    public double totalGpuSeconds() {
        return jobs.stream().mapToDouble(TraceJob::gpuSeconds).sum();
    }

    /** Submit time of the last job, 0 when empty. */
    public long lastSubmitSeconds() {
        return jobs.isEmpty() ? 0 : jobs.get(jobs.size() - 1).submitSeconds();
    }
}
