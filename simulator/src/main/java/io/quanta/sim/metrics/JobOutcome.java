package io.quanta.sim.metrics;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * What happened to one trace job in a simulation; times in seconds since the simulation origin (the trace's zero).
 *
 * @param jobId the job
 * @param tenant its virtual cluster
 * @param model the model kind it was given
 * @param numGpus GPUs it needs
 * @param durationSeconds its service time at full speed
 * @param submitSeconds arrival
 * @param firstStartSeconds first time an attempt started, empty if it never ran
 * @param finishSeconds when the scheduler saw it finish, empty if it did not
 * @param preemptions times it was suspended by the policy (SUSPEND decisions)
 * @param migrations times it was migrated (MIGRATE decisions)
 * @param serversUsed most distinct servers any of its attempts spanned (placement spread), 0 if it never ran
 * @param finalState the last state the scheduler reported (e.g. FINISHED, QUEUED, REJECTED)
 * @param runningSeconds seconds the job held GPUs, all attempts together: from the first of an attempt's nodes
 *     reporting it started to the last of them reporting it ended (suspended, completed, failed, lost) or the job's
 *     finish, whichever comes first, so a checkpoint and a restart count as running; 0 if it never started; empty where
 *     it was not measured (a live cluster's workload, read from statuses)
 */
public record JobOutcome(String jobId, String tenant, String model, int numGpus, long durationSeconds,
                         double submitSeconds, OptionalDouble firstStartSeconds, OptionalDouble finishSeconds,
                         int preemptions, int migrations, int serversUsed, String finalState,
                         OptionalDouble runningSeconds) {

    public JobOutcome {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(firstStartSeconds, "firstStartSeconds");
        Objects.requireNonNull(finishSeconds, "finishSeconds");
        Objects.requireNonNull(finalState, "finalState");
        Objects.requireNonNull(runningSeconds, "runningSeconds");
    }

    /** Whether the job finished. */
    public boolean finished() {
        return finishSeconds.isPresent();
    }

    /** Job completion time: finish minus submit, empty when unfinished. */
    public OptionalDouble jctSeconds() {
        return finished() ? OptionalDouble.of(finishSeconds.getAsDouble() - submitSeconds) : OptionalDouble.empty();
    }

    /**
     * Time after the first start without GPUs (suspended and waiting to resume): JCT minus queueing delay minus running
     * time; empty unless the job finished and its running time was measured.
     */
    public OptionalDouble waitingAfterStartSeconds() {
        if (!finished() || runningSeconds.isEmpty() || firstStartSeconds.isEmpty()) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(jctSeconds().getAsDouble() - queueingDelaySeconds().getAsDouble()
                - runningSeconds.getAsDouble());
    }

    /**
     * Running time beyond the service time at full speed (slower while packed or spread, checkpoints and restarts);
     * empty unless the job finished and its running time was measured.
     */
    public OptionalDouble runningBeyondSeconds() {
        return finished() && runningSeconds.isPresent()
                ? OptionalDouble.of(runningSeconds.getAsDouble() - durationSeconds) : OptionalDouble.empty();
    }

    /** Queueing delay: first start minus submit, empty if it never started. */
    public OptionalDouble queueingDelaySeconds() {
        return firstStartSeconds.isPresent() ? OptionalDouble.of(firstStartSeconds.getAsDouble() - submitSeconds)
                : OptionalDouble.empty();
    }
}
