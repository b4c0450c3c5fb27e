package io.quanta.sim.trace;

import java.util.ArrayList;
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

    /** Every submit time {@code seconds} later (the same jobs, the same gaps between them). */
    public Trace shifted(long seconds) {
        if (seconds < 0) {
            throw new IllegalArgumentException("shift must be >= 0 s, got " + seconds);
        }
        if (seconds == 0) {
            return this;
        }
        return new Trace(name + " (shifted " + seconds + " s)", offset(jobs, seconds));
    }

    /** The jobs with every submit time moved by {@code seconds}. */
    private static List<TraceJob> offset(List<TraceJob> jobs, long seconds) {
        List<TraceJob> out = new ArrayList<>(jobs.size());
        for (TraceJob j : jobs) {
            out.add(new TraceJob(j.jobId(), j.submitSeconds() + seconds, j.numGpus(), j.durationSeconds(), j.tenant()));
        }
        return out;
    }

    /** The first {@code n} jobs (all if {@code n} is larger). */
    public Trace first(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("n must be >= 0, got " + n);
        }
        return n >= jobs.size() ? this : new Trace(name + " (first " + n + ")", jobs.subList(0, n));
    }

    /**
     * {@code n} consecutive jobs from position {@code from} (0-based), submit times rebased so that the first of them
     * arrives at 0; named {@code <name> jobs <from>-<last>}.
     */
    public Trace window(int from, int n) {
        if (from < 0 || n < 1 || from + n > jobs.size()) {
            throw new IllegalArgumentException("window of " + n + " jobs from " + from + " does not fit trace " + name
                    + " of " + jobs.size() + " jobs");
        }
        long t0 = jobs.get(from).submitSeconds();
        return new Trace(name + " jobs " + from + "-" + (from + n - 1), offset(jobs.subList(from, from + n), -t0));
    }

    /** Mean service time in seconds (duration at full speed): the no-queueing floor of the average JCT. */
    public double meanDurationSeconds() {
        return jobs.stream().mapToLong(TraceJob::durationSeconds).average().orElse(0);
    }

    /** The largest gang of the trace, 0 when empty. */
    public int maxGpus() {
        return jobs.stream().mapToInt(TraceJob::numGpus).max().orElse(0);
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
