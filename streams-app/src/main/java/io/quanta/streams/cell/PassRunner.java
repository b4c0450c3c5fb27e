package io.quanta.streams.cell;

import io.quanta.core.decision.Decision;
import io.quanta.core.decision.Decisions;
import io.quanta.core.model.GpuId;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.JobState;
import io.quanta.core.policy.SchedulingPolicy;
import io.quanta.schemas.DecisionType;
import io.quanta.schemas.NodeCommandType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One scheduling pass: snapshot the cell at stream time, ask the policy, validate the whole plan
 * ({@link PlanCheck}) and apply it in order, or record why it was refused (INVALID_PLAN) and apply nothing. Then ask
 * the policy when it next wants to be woken, on the state as it stands after the pass.
 */
final class PassRunner {

    private static final Logger LOG = LoggerFactory.getLogger(PassRunner.class);

    private final SchedulingPolicy policy;
    private final JobTransitions jobs;
    private final PassTimer timer;

    PassRunner(SchedulingPolicy policy, JobTransitions jobs, PassTimer timer) {
        this.policy = policy;
        this.jobs = jobs;
        this.timer = timer;
    }

    void run(Step s) {
        long started = timer.start();
        try {
            pass(s);
        } finally {
            timer.stop(started);
        }
    }

    private void pass(Step s) {
        CellState cell = s.cell;
        cell.changeMeta(m -> {
            m.dirty = false;
            m.passes++;
        });
        if (cell.nodes.isEmpty()) {
            cell.changeMeta(m -> m.policyWakeUpMs = -1);
            return;
        }
        ClusterSnapshot snapshot = SnapshotBuilder.build(cell, s.now);
        Decisions decisions = policy.decide(snapshot);
        ClusterSnapshot after = snapshot;
        if (!decisions.isEmpty()) {
            Optional<String> problem = PlanCheck.check(cell, decisions);
            if (problem.isPresent()) {
                refuse(s, decisions, problem.get());
            } else {
                decisions.list().forEach(d -> apply(s, d));
                after = SnapshotBuilder.build(cell, s.now);
            }
        }
        explainWaiting(s, decisions);
        long wakeUp = policy.nextWakeUp(after).map(Instant::toEpochMilli).orElse(-1L);
        cell.changeMeta(m -> m.policyWakeUpMs = wakeUp);
    }

    /**
     * Gives each job the policy left waiting its current reason (what blocks it now, not its history), published with
     * its status when the cause changed: its position in the order moves with every arrival, and republishing that
     * would rewrite every waiting job's state and status in every pass (the shown position is the one of the last
     * change of cause).
     */
    private static void explainWaiting(Step s, Decisions decisions) {
        decisions.waiting().forEach((jobId, reason) -> {
            JobRecord job = s.cell.job(jobId);
            if (job != null && job.state() == JobState.QUEUED && !reason.sameCauseAs(job.reason())) {
                s.cell.changeJob(jobId, j -> j.reason = reason.text());
                s.statusChanged(jobId);
            }
        });
    }

    /**
     * Asks the policy again when it wants to be woken, after a change that needs no immediate pass (an attempt
     * reported STARTED begins to accrue service, so its next queue threshold becomes a wake-up).
     */
    void refreshWakeUp(Step s) {
        CellState cell = s.cell;
        if (!cell.nodes.isEmpty()) {
            long wakeUp = policy.nextWakeUp(SnapshotBuilder.build(cell, s.now)).map(Instant::toEpochMilli)
                    .orElse(-1L);
            cell.changeMeta(m -> m.policyWakeUpMs = wakeUp);
        }
    }

    private void refuse(Step s, Decisions decisions, String problem) {
        LOG.warn("cell {}: refused the plan of policy {} at {} ({} decisions): {}", s.cell.cellId, policy.name(),
                s.instant(), decisions.size(), problem);
        SortedMap<String, String> details = new TreeMap<>();
        for (int i = 0; i < decisions.size(); i++) {
            Decision d = decisions.list().get(i);
            details.put(String.format("decision.%03d", i), d.type() + " " + d.jobId() + ": " + d.reason());
        }
        s.write(s.decision(DecisionType.INVALID_PLAN, null, 0, "plan of " + policy.name() + " refused, nothing "
                + "applied: " + problem).setDetails(details));
    }

    private void apply(Step s, Decision decision) {
        CellState cell = s.cell;
        JobRecord job = cell.job(decision.jobId());
        switch (decision) {
            case Decision.Start d -> jobs.start(s, job, d.gpus(), List.of(), DecisionType.START, d.reason(), d.details());
            case Decision.Pack d -> pack(s, job, d);
            case Decision.Suspend d -> suspend(s, job, DecisionType.SUSPEND, d.reason(), d.details(), null);
            case Decision.Migrate d -> suspend(s, job, DecisionType.MIGRATE, d.reason(), d.details(), d);
            case Decision.Reject d -> {
                s.deadLetterSubmission(job, d.reason());
                jobs.finish(s, job, JobState.REJECTED, d.reason());
            }
            case Decision.ChangeQueue d -> {
                cell.changeJob(job.jobId(), j -> {
                    j.queueLevel = d.toLevel();
                    if (d.toLevel() < d.fromLevel() && j.state == JobState.QUEUED) {
                        j.queuedSinceMs = s.now;
                    }
                });
                SortedMap<String, String> details = new TreeMap<>(d.details());
                details.put("fromLevel", Integer.toString(d.fromLevel()));
                details.put("toLevel", Integer.toString(d.toLevel()));
                s.write(s.decision(DecisionType.CHANGE_QUEUE, job.jobId(), job.attempt(), d.reason())
                        .setDetails(details));
                s.statusChanged(job.jobId());
            }
            case Decision.RecordInterference d -> {
                cell.recordInterference(d.modelA(), d.modelB());
                SortedMap<String, String> details = new TreeMap<>(d.details());
                details.put("modelA", d.modelA());
                details.put("modelB", d.modelB());
                s.write(s.decision(DecisionType.RECORD_INTERFERENCE, d.jobId(), job == null ? 0 : job.attempt(),
                        d.reason()).setSharingWith(List.of(d.otherJobId())).setDetails(details));
            }
            case Decision.ConfirmPlacement d -> {
                cell.changeJob(job.jobId(), JobTransitions::clearIntrospection);
                s.write(s.decision(DecisionType.CONFIRM_PLACEMENT, job.jobId(), job.attempt(), d.reason())
                        .setDetails(d.details()));
            }
        }
    }

    private void pack(Step s, JobRecord job, Decision.Pack d) {
        CellState cell = s.cell;
        for (String partnerId : d.sharingWith()) {
            cell.changeJob(partnerId, p -> {
                List<String> with = new ArrayList<>(p.sharingWith);
                if (!with.contains(job.jobId())) {
                    with.add(job.jobId());
                    with.sort(null);
                }
                p.sharingWith = with;
                p.placementChangedAtMs = s.now;
                p.baselineThroughput = p.throughput;
            });
        }
        JobRecord started = jobs.start(s, job, d.gpus(), d.sharingWith(), DecisionType.PACK, d.reason(), d.details());
        cell.changeJob(started.jobId(), j -> {
            j.placementChangedAtMs = s.now;
            j.baselineThroughput = Double.NaN;
        });
    }

    /** Suspend (preemption) or migrate: the attempt checkpoints and stops; GPUs are held until SUSPENDED. */
    private void suspend(Step s, JobRecord job, DecisionType type, String reason, SortedMap<String, String> details,
                         Decision.Migrate migrate) {
        CellState cell = s.cell;
        AssignmentRecord assignment = cell.assignments.get(job.jobId()).commandedAt(s.now);
        cell.putAssignment(assignment);
        List<String> placement = assignment.placement().stream().map(GpuId::toString).toList();
        cell.changeJob(job.jobId(), j -> {
            j.state = JobState.SUSPENDING;
            j.reason = reason;
            if (migrate != null) {
                j.migrations++;
                j.previousPlacement = placement;
                j.baselineThroughput = j.throughput;
            } else {
                j.preemptions++;
            }
        });
        var decision = s.decision(type, job.jobId(), job.attempt(), reason).setDetails(details)
                .setGpus(Step.refs(assignment.placement()));
        if (migrate != null) {
            assignment = cell.reserve(assignment, migrate.to());
            decision.setGpus(Step.refs(migrate.to())).setFromGpus(Step.refs(migrate.from()));
        }
        s.write(decision);
        for (String nodeId : assignment.nodes()) {
            s.command(Commands.stop(NodeCommandType.SUSPEND, job.jobId(), assignment.attempt(),
                    cell.nodes.get(nodeId), s.now));
        }
        s.statusChanged(job.jobId());
    }
}
