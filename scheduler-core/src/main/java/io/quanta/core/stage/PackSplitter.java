package io.quanta.core.stage;

import io.quanta.core.model.Job;
import io.quanta.core.placement.Placement;
import io.quanta.core.plan.Allocation;
import io.quanta.core.plan.CellIndex;
import io.quanta.core.plan.Layer;
import io.quanta.core.plan.Placer;
import io.quanta.core.plan.Text;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Unpacking once the over-subscription is over (Gandiva migrates jobs to use vacated GPUs): packing only pays while
 * jobs wait, but a pack otherwise lasts until one of its jobs finishes, and even a gaining pack slows both (two
 * language models run at 0.81 each). Run only when no job is left waiting, so that it never takes GPUs a waiting job
 * could use: the member of a settled pack with the least attained service moves to free GPUs, at most
 * {@code maxPerPass} per pass, least attained first. With {@code whileWaiting} ({@code quanta.unpack-while-waiting})
 * it also runs in a pass that leaves jobs waiting: the scheduler has then given them every free GPU they could use
 * in this pass, so the free GPUs left are ones they cannot use now (a gang waiting for one server or for more GPUs
 * than are free), and a few waiting gangs no longer keep every pack of the cell together for hours.
 */
public final class PackSplitter {

    private final String policy;
    private final Placer placer;
    private final int maxPerPass;
    private final boolean whileWaiting;

    public PackSplitter(String policy, Placer placer, int maxPerPass, boolean whileWaiting) {
        this.policy = policy;
        this.placer = placer;
        this.maxPerPass = maxPerPass;
        this.whileWaiting = whileWaiting;
    }

    /**
     * Moves packed jobs to free GPUs; call after allocation, with the jobs left waiting. With {@code room}
     * ({@code quanta.unpack-room}; null without it), a gang that wants
     * one server first tries {@link MakeRoom#unpack}: onto a server already free, onto GPUs being vacated for it, or
     * onto a server emptied for it; only when none of these exists does it move to free GPUs as without. Room is made
     * only in a pass that leaves no job waiting.
     */
    public void apply(List<Job> running, List<Job> leftWaiting, Allocation alloc, MakeRoom room) {
        boolean waiting = !leftWaiting.isEmpty();
        if ((waiting && !whileWaiting) || maxPerPass == 0) {
            return;
        }
        List<Job> movers = movers(running, alloc);
        int moved = 0;
        for (Job job : movers) {
            if (moved >= maxPerPass) {
                return;
            }
            if (room != null && !waiting && room.unpack(job, alloc)) {
                continue;
            }
            var target = placer.place(job, alloc.pool(), Layer.FREE);
            if (target.isPresent()) {
                move(job, target.get(), waiting, alloc);
                moved++;
            }
        }
    }

    /** One job per settled pack (least attained service, then latest arrival), least attained first. */
    private static List<Job> movers(List<Job> running, Allocation alloc) {
        CellIndex cell = alloc.cell();
        Comparator<Job> order = Comparator.comparingDouble(Job::attainedGpuSeconds)
                .thenComparing(Comparator.comparingLong(Job::arrivalSeq).reversed()).thenComparing(Job::id);
        Set<String> seen = new HashSet<>();
        List<Job> movers = new ArrayList<>();
        for (Job job : running) {
            if (!job.isPacked() || seen.contains(job.id())) {
                continue;
            }
            List<Job> group = new ArrayList<>(List.of(job));
            job.sharingWith().forEach(id -> {
                Job other = cell.job(id);
                if (other != null) {
                    group.add(other);
                }
            });
            group.forEach(j -> seen.add(j.id()));
            boolean settled = group.stream().allMatch(j -> j.isRunning() && j.placementChangedAt().isEmpty()
                    && !alloc.hasActed(j.id()));
            if (settled) {
                movers.add(group.stream().min(order).orElseThrow());
            }
        }
        movers.sort(order);
        return movers;
    }

    private void move(Job job, Placement target, boolean waiting, Allocation alloc) {
        alloc.migrate(job, target.gpus(), policy + ": unpack job " + job.id() + " (shared with "
                        + String.join(",", job.sharingWith()) + ") to " + target.describe()
                        + (waiting ? ": the jobs left waiting cannot use these free GPUs in this pass, so it runs"
                                + " alone on them" : ": no job waits, free GPUs let it run alone"),
                Text.details("sharingWith", String.join(",", job.sharingWith()), "placement", target.describe()));
    }
}
