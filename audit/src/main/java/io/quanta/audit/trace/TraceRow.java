package io.quanta.audit.trace;

import java.time.Instant;

/**
 * One job of a derived workload trace: the common trace columns plus how the duration was obtained.
 *
 * @param jobId          the job
 * @param submittedAt    when it was submitted
 * @param numGpus        GPUs it asked for (gang)
 * @param durationSeconds service time at full speed the trace gives it (>= 1)
 * @param status         {@code SUCCEEDED}, {@code FAILED}, {@code CANCELLED}, {@code RUNNING} (not finished when the
 *                       log ends) or {@code QUEUED} (never started)
 * @param tenant         its tenant, written as {@code virtual_cluster}
 * @param observedRunSeconds time it actually held GPUs, from the scheduler's accounting (attained GPU-seconds / GPUs)
 *                       or, for unfinished jobs, from the nodes' events; -1 when it never ran
 * @param fullSpeedSeconds work done expressed at full speed, from telemetry (minibatches x the profile's minibatch
 *                       time); -1 when telemetry or the profile's minibatch time is missing
 * @param source         which figure {@code durationSeconds} is: {@code telemetry}, {@code observed} or
 *                       {@code expected} (the submission's expected duration, for jobs that never ran)
 * @param cellId         the cell that scheduled it
 */
public record TraceRow(String jobId, Instant submittedAt, int numGpus, long durationSeconds, String status,
                       String tenant, double observedRunSeconds, double fullSpeedSeconds, String source,
                       String cellId) {
}
