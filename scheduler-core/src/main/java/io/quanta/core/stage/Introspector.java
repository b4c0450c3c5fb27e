package io.quanta.core.stage;

import io.quanta.core.model.Job;
import io.quanta.core.model.JobState;
import io.quanta.core.placement.Placement;
import io.quanta.core.plan.Allocation;
import io.quanta.core.plan.CellIndex;
import io.quanta.core.plan.Layer;
import io.quanta.core.plan.Placer;
import io.quanta.core.plan.Text;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Introspection (Gandiva): once a window has passed since a pack or a migration, judge it from measured throughput.
 * A pack is kept when the sum of its jobs' normalised throughputs (measured / baseline, or / the profile's solo
 * speed for the newcomer) is at least {@code 1 + minGain} (time slicing them would give 1); otherwise the newcomer is
 * moved to free GPUs (or suspended when none fit) and each pair is remembered as interfering. A migration is kept
 * when its throughput is at least its baseline, else moved back if its previous GPUs are free. Without telemetry the
 * change is confirmed after two windows.
 */
public final class Introspector {

    private final String policy;
    private final double windowSeconds;
    private final double minGain;

    public Introspector(String policy, double windowSeconds, double minGain) {
        this.policy = policy;
        this.windowSeconds = windowSeconds;
        this.minGain = minGain;
    }

    /** Judges every pack and migration whose window has ended; runs before allocation. */
    public void apply(List<Job> running, Allocation alloc, Placer placer) {
        Instant now = alloc.cell().snapshot().now();
        Set<String> judged = new HashSet<>();
        for (Job job : running) {
            if (job.placementChangedAt().isEmpty() || judged.contains(job.id()) || alloc.hasActed(job.id())) {
                continue;
            }
            List<Job> group = group(job, alloc.cell());
            if (group.isEmpty()) {
                continue;
            }
            Instant changed = group.stream().map(j -> j.placementChangedAt().orElse(Instant.MIN))
                    .max(Comparator.naturalOrder()).orElseThrow();
            if (now.isBefore(changed.plus(window(1)))) {
                continue;
            }
            group.forEach(j -> judged.add(j.id()));
            if (job.isPacked() && group.size() > 1) {
                judgePack(group, alloc, placer, !now.isBefore(changed.plus(window(2))));
            } else if (!job.previousPlacement().isEmpty()) {
                judgeMigration(job, alloc, !now.isBefore(changed.plus(window(2))));
            } else {
                confirm(job, alloc, "no longer packed");
            }
        }
    }

    /** The next end of an introspection window (or of the telemetry grace period) after {@code now}. */
    public Optional<Instant> nextWakeUp(Instant now, List<Job> running) {
        Instant best = null;
        for (Job job : running) {
            if (job.placementChangedAt().isEmpty()) {
                continue;
            }
            Instant changed = job.placementChangedAt().get();
            for (Instant t : List.of(changed.plus(window(1)), changed.plus(window(2)))) {
                if (t.isAfter(now) && (best == null || t.isBefore(best))) {
                    best = t;
                    break;
                }
            }
        }
        return Optional.ofNullable(best).map(t -> Text.after(now, Duration.between(now, t).toNanos() / 1e9));
    }

    private Duration window(int times) {
        return Duration.ofNanos((long) Math.ceil(windowSeconds * times * 1e9));
    }

    /** The job and its running partners, or empty while a partner is still starting. */
    private List<Job> group(Job job, CellIndex cell) {
        List<Job> group = new ArrayList<>();
        group.add(job);
        for (String id : job.sharingWith()) {
            Job other = cell.job(id);
            if (other != null && other.state() == JobState.STARTING) {
                return List.of();
            }
            if (other != null && other.isRunning()) {
                group.add(other);
            }
        }
        group.sort(Comparator.comparing(Job::id));
        return group;
    }

    private void judgePack(List<Job> group, Allocation alloc, Placer placer, boolean graceOver) {
        double total = 0;
        StringBuilder parts = new StringBuilder();
        for (Job j : group) {
            double normalised = normalised(j);
            if (Double.isNaN(normalised)) {
                if (graceOver) {
                    group.forEach(g -> confirm(g, alloc, "no throughput telemetry for job " + j.id() + "; pack kept"));
                }
                return;
            }
            total += normalised;
            parts.append(parts.isEmpty() ? "" : " + ").append(j.id()).append(' ').append(Text.num(normalised));
        }
        double sum = total;
        String ids = String.join("+", group.stream().map(Job::id).toList());
        if (sum >= 1 + minGain - 1e-9) {
            group.forEach(g -> confirm(g, alloc, "pack " + ids + " kept: normalised throughput " + parts + " = "
                    + Text.num(sum) + " >= " + Text.num(1 + minGain)));
            return;
        }
        Job newcomer = group.stream().min(Comparator.comparingDouble(Job::executedSeconds)
                .thenComparing(Comparator.comparingLong(Job::arrivalSeq).reversed())
                .thenComparing(Job::id)).orElseThrow();
        String why = policy + ": introspection: pack " + ids + " reverted: normalised throughput " + parts + " = "
                + Text.num(sum) + " < " + Text.num(1 + minGain);
        for (Job other : group) {
            if (other != newcomer) {
                alloc.recordInterference(newcomer, other, why, Text.details("normalisedSum", Text.num(sum)));
                alloc.confirm(other, why, Text.details("normalisedSum", Text.num(sum)));
            }
        }
        Optional<Placement> free = placer.place(newcomer, alloc.pool(), Layer.FREE);
        if (free.isPresent()) {
            alloc.migrate(newcomer, free.get().gpus(), why + "; job " + newcomer.id() + " moved to "
                    + free.get().describe(), Text.details("normalisedSum", Text.num(sum)));
        } else {
            alloc.suspend(newcomer, why + "; job " + newcomer.id() + " suspended (no free GPUs to separate them)",
                    Text.details("normalisedSum", Text.num(sum)));
        }
    }

    private void judgeMigration(Job job, Allocation alloc, boolean graceOver) {
        double before = job.baselineThroughput();
        double after = job.throughput();
        if (Double.isNaN(before) || Double.isNaN(after) || before <= 0) {
            if (graceOver) {
                confirm(job, alloc, "no throughput telemetry; migration kept");
            }
            return;
        }
        String numbers = "throughput " + Text.num(after) + " vs " + Text.num(before) + " minibatches/s before";
        if (after >= before - 1e-9) {
            confirm(job, alloc, "migration kept: " + numbers);
            return;
        }
        boolean backFree = job.previousPlacement().stream().allMatch(alloc.pool()::isFree);
        if (backFree) {
            alloc.migrate(job, job.previousPlacement(), policy + ": introspection: migration of job " + job.id()
                    + " reverted: " + numbers, Text.details("throughput", Text.num(after), "baseline", Text.num(before)));
        } else {
            confirm(job, alloc, "migration kept although slower (" + numbers + "): previous GPUs are taken");
        }
    }

    /** Measured throughput over the job's speed alone: its baseline when measured, else its profile's solo speed. */
    static double normalised(Job j) {
        double base = j.baselineThroughput() > 0 ? j.baselineThroughput() : j.profile().soloThroughput();
        return base > 0 && !Double.isNaN(j.throughput()) ? j.throughput() / base : Double.NaN;
    }

    private void confirm(Job job, Allocation alloc, String why) {
        alloc.confirm(job, policy + ": introspection: " + why, Text.details());
    }
}
