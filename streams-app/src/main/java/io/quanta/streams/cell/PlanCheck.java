package io.quanta.streams.cell;

import io.quanta.core.decision.Decision;
import io.quanta.core.decision.Decisions;
import io.quanta.core.model.GpuId;
import io.quanta.core.model.JobState;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Validates a pass's decisions as a whole against the cell state before any is applied (all-or-nothing, like a
 * Volcano statement): every job exists in a state that allows the decision, every GPU exists on an alive node, is
 * healthy and free (or shared only with the named partners of a Pack), gangs get exactly their GPU count of the
 * required model, no GPU is claimed twice and no job changes state twice in one pass.
 */
final class PlanCheck {

    private PlanCheck() {
    }

    /** The first problem found, or empty when the whole plan can be applied. */
    static Optional<String> check(CellState cell, Decisions decisions) {
        Map<GpuId, String> claimed = new HashMap<>();
        Set<String> moved = new HashSet<>();
        for (Decision d : decisions.list()) {
            JobRecord job = cell.job(d.jobId());
            if (job == null && !(d instanceof Decision.RecordInterference)) {
                return problem(d, "job is not active in cell " + cell.cellId);
            }
            Optional<String> problem = switch (d) {
                case Decision.Start s -> requireState(job, JobState.QUEUED)
                        .or(() -> gang(cell, job, s.gpus(), claimed, List.of()));
                case Decision.Pack p -> requireState(job, JobState.QUEUED)
                        .or(() -> partners(cell, p.sharingWith()))
                        .or(() -> gang(cell, job, p.gpus(), claimed, p.sharingWith()));
                case Decision.Suspend s -> job.cancelRequested() ? Optional.of("job is being cancelled")
                        : job.state() == JobState.RUNNING || job.state() == JobState.STARTING ? Optional.empty()
                        : Optional.of("job is " + job.state() + ", not RUNNING or STARTING");
                case Decision.Migrate m -> requireState(job, JobState.RUNNING)
                        .or(() -> m.from().equals(placement(cell, job)) ? Optional.empty()
                                : Optional.of("migrates from " + m.from() + " but runs on " + placement(cell, job)))
                        .or(() -> gang(cell, job, m.to(), claimed, List.of()));
                case Decision.Reject r -> requireState(job, JobState.QUEUED);
                case Decision.ChangeQueue c -> c.fromLevel() == job.queueLevel() ? Optional.empty()
                        : Optional.of("moves from queue " + c.fromLevel() + " but the job is in queue "
                        + job.queueLevel());
                case Decision.RecordInterference r -> Optional.empty();
                case Decision.ConfirmPlacement c -> Optional.empty();
            };
            if (problem.isEmpty() && changesState(d) && !moved.add(d.jobId())) {
                problem = Optional.of("job changes state twice in one pass");
            }
            if (problem.isPresent()) {
                return problem(d, problem.get());
            }
        }
        return Optional.empty();
    }

    private static boolean changesState(Decision d) {
        return d instanceof Decision.Start || d instanceof Decision.Pack || d instanceof Decision.Suspend
                || d instanceof Decision.Migrate || d instanceof Decision.Reject;
    }

    private static Optional<String> requireState(JobRecord job, JobState state) {
        return job.state() == state ? Optional.empty() : Optional.of("job is " + job.state() + ", not " + state);
    }

    private static Optional<String> partners(CellState cell, List<String> partners) {
        for (String id : partners) {
            JobRecord partner = cell.job(id);
            if (partner == null || !partner.state().holdsGpus() || !cell.assignments.containsKey(id)) {
                return Optional.of("pack partner " + id + " holds no GPUs");
            }
        }
        return Optional.empty();
    }

    private static Optional<String> gang(CellState cell, JobRecord job, List<GpuId> gpus, Map<GpuId, String> claimed,
                                         List<String> sharingWith) {
        if (gpus.size() != job.numGpus()) {
            return Optional.of("gets " + gpus.size() + " GPUs but needs " + job.numGpus());
        }
        for (GpuId gpu : gpus) {
            NodeRecord.GpuRecord record = cell.gpu(gpu);
            if (record == null) {
                return Optional.of("GPU " + gpu + " does not exist in cell " + cell.cellId);
            }
            if (!cell.usable(gpu)) {
                return Optional.of("GPU " + gpu + " is on a lost node or unhealthy");
            }
            if (job.gpuType() != null && !job.gpuType().equals(record.model())) {
                return Optional.of("GPU " + gpu + " is a " + record.model() + ", the job needs " + job.gpuType());
            }
            Set<String> occupants = cell.occupants(gpu);
            boolean allowed = sharingWith.isEmpty() ? occupants.isEmpty()
                    : !occupants.isEmpty() && sharingWith.containsAll(occupants);
            if (!allowed) {
                return Optional.of("GPU " + gpu + " is used by " + occupants);
            }
            String previous = claimed.putIfAbsent(gpu, job.jobId());
            if (previous != null && sharingWith.isEmpty()) {
                return Optional.of("GPU " + gpu + " is also given to job " + previous + " in this pass");
            }
        }
        return Optional.empty();
    }

    private static List<GpuId> placement(CellState cell, JobRecord job) {
        AssignmentRecord assignment = cell.assignments.get(job.jobId());
        return assignment == null ? List.of() : assignment.placement();
    }

    private static Optional<String> problem(Decision d, String text) {
        return Optional.of(d.type() + " of job " + d.jobId() + ": " + text);
    }
}
