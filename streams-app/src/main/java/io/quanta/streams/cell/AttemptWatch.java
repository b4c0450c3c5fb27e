package io.quanta.streams.cell;

import io.quanta.core.model.JobState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Attempts that wait too long for their node: STARTING without a STARTED within the start timeout, SUSPENDING without
 * a SUSPENDED within the suspend timeout (stream time since the command went out). Such an attempt would otherwise
 * hold its GPUs forever when an event is lost or its node never got the command. Its nodes are told to KILL it; a
 * start that never came counts as a failed attempt (the job's retry rules decide between a retry and FAILED, so a job
 * that can never start does not loop), a suspension that never came requeues the job from its previous checkpoint.
 * Checked once per scheduling quantum.
 */
final class AttemptWatch {

    private final JobTransitions jobs;
    private final long startTimeoutMs;
    private final long suspendTimeoutMs;

    AttemptWatch(JobTransitions jobs, AttemptTimeouts timeouts) {
        this.jobs = jobs;
        this.startTimeoutMs = timeouts.start().toMillis();
        this.suspendTimeoutMs = timeouts.suspend().toMillis();
    }

    /** Ends the attempts past their timeout; true when any was (a pass should run). */
    boolean checkTimeouts(Step s) {
        if (startTimeoutMs == 0 && suspendTimeoutMs == 0) {
            return false;
        }
        CellState cell = s.cell;
        List<AssignmentRecord> overdue = new ArrayList<>();
        for (AssignmentRecord a : cell.assignments.values()) {
            JobRecord job = cell.job(a.jobId());
            long limit = job == null ? 0 : job.state() == JobState.STARTING ? startTimeoutMs
                    : job.state() == JobState.SUSPENDING ? suspendTimeoutMs : 0;
            if (limit > 0 && a.commandedAtMs() >= 0 && s.now - a.commandedAtMs() > limit) {
                overdue.add(a);
            }
        }
        for (AssignmentRecord a : overdue) {
            JobRecord job = cell.job(a.jobId());
            boolean starting = job.state() == JobState.STARTING;
            String why = "no " + (starting ? "STARTED" : "SUSPENDED") + " from " + String.join(",", a.nodes())
                    + " within " + Duration.ofMillis(starting ? startTimeoutMs : suspendTimeoutMs).toSeconds()
                    + " s of the " + (starting ? "START" : "SUSPEND") + " sent at "
                    + Instant.ofEpochMilli(a.commandedAtMs()) + " (scheduler." + (starting ? "start" : "suspend")
                    + ".timeout.ms)";
            // attemptEnded sends KILL to every alive node of the attempt (none of them reported its end)
            jobs.attemptEnded(s, job, null, starting ? JobTransitions.End.FAILED : JobTransitions.End.LOST, why,
                    null);
        }
        return !overdue.isEmpty();
    }
}
