package io.quanta.sim.trace;

import java.util.Objects;

/**
 * One job of a trace in the common format ({@code ../shared/traces/README.md}): when it arrives, how many GPUs it
 * holds at once and how long it runs at full speed on a consolidated placement.
 *
 * @param jobId the trace's job id
 * @param submitSeconds arrival, seconds since the trace's first submission, {@code >= 0}
 * @param numGpus GPUs held at once (gang), {@code >= 1}
 * @param durationSeconds service time at full speed, {@code >= 1}
 * @param tenant the virtual cluster (Philly) or {@code default} when the trace has none
 */
public record TraceJob(String jobId, long submitSeconds, int numGpus, long durationSeconds, String tenant) {

    public TraceJob {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(tenant, "tenant");
        if (jobId.isBlank()) {
            throw new IllegalArgumentException("job id must not be blank");
        }
        if (submitSeconds < 0) {
            throw new IllegalArgumentException("job " + jobId + ": submit time must be >= 0, got " + submitSeconds);
        }
        if (numGpus < 1) {
            throw new IllegalArgumentException("job " + jobId + ": num_gpus must be >= 1, got " + numGpus);
        }
        if (durationSeconds < 1) {
            throw new IllegalArgumentException("job " + jobId + ": duration must be >= 1 s, got " + durationSeconds);
        }
    }

    /** The job's service in GPU-seconds (GPUs x duration). */
    public double gpuSeconds() {
        return (double) numGpus * durationSeconds;
    }
}
