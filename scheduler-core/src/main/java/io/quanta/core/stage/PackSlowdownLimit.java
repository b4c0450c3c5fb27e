package io.quanta.core.stage;

import io.quanta.core.model.InterferenceMemory;
import io.quanta.core.model.Job;
import io.quanta.core.plan.Allocation;
import io.quanta.core.plan.CellIndex;
import io.quanta.core.plan.Text;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A bound on what packing may cost one job: when a packed job's measured throughput falls below {@code minSpeed} of
 * its speed alone, its model pair with each partner is remembered as interfering, so that it is never packed again.
 * Gandiva's introspection keeps a pack whose summed throughput rose, even when one job of it runs at half speed
 * for days (a long language model under a stream of short ResNets); this stage keeps the gain of packs that cost
 * every job little and stops the ones that make one job pay for the others. The running pack itself is left as it is.
 */
public final class PackSlowdownLimit {

    private final String policy;
    private final double minSpeed;

    public PackSlowdownLimit(String policy, double minSpeed) {
        this.policy = policy;
        this.minSpeed = minSpeed;
    }

    /** Records the pairs of packed running jobs of which one runs slower than the bound (each pair once). */
    public void apply(List<Job> running, Allocation alloc) {
        CellIndex cell = alloc.cell();
        InterferenceMemory memory = cell.snapshot().interferenceMemory();
        Set<InterferenceMemory.Pair> recorded = new HashSet<>();
        for (Job job : running) {
            double speed = Introspector.normalised(job);
            if (!job.isPacked() || job.placementChangedAt().isPresent() || Double.isNaN(speed) || speed >= minSpeed) {
                continue;
            }
            for (String id : job.sharingWith()) {
                Job other = cell.job(id);
                String a = job.profile().modelName();
                if (other == null || !other.isRunning() || memory.isBadPair(a, other.profile().modelName())
                        || !recorded.add(new InterferenceMemory.Pair(a, other.profile().modelName()))) {
                    continue;
                }
                alloc.recordInterference(job, other, policy + ": pack slowdown limit: job " + job.id() + " ("
                                + a + ") runs at " + Text.num(speed) + " of its speed alone packed with job " + other.id()
                                + " (" + other.profile().modelName() + "), below " + Text.num(minSpeed)
                                + "; the pair is not packed again",
                        Text.details("speed", Text.num(speed), "minSpeed", Text.num(minSpeed)));
            }
        }
    }
}
