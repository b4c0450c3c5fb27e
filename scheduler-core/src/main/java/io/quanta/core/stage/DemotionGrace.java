package io.quanta.core.stage;

import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.Job;
import io.quanta.core.plan.Text;
import java.time.Instant;
import java.util.Optional;

/**
 * Hysteresis on demotion ({@code quanta.demotion-grace}): a running job that entered its queue less than
 * {@code grace} times that queue's lower threshold ago (its attained service is below {@code (1 + grace) x} the
 * threshold) may be preempted only by a job at least two queues above it, not by a job of the queue it has just left.
 * Without it a job is suspended the moment it crosses a threshold by the next job waiting in the queue above: on the
 * tuning input {@code w12-heavy} without pack gain (one-GPU jobs of about 40 minutes on average) more than half of
 * the default's preemptions of a queue-1 job by a queue-0 job, and of a queue-2 job by a queue-1 job, took a job less
 * than a tenth of the threshold past it, each paying a suspend and a resume. The grace is a share of the threshold, so
 * it scales with the cell's learned thresholds. Jobs two queues above still preempt at once, as do all jobs once the
 * grace is run.
 */
public final class DemotionGrace extends PreemptionGate {

    private static final double EPS = 1e-6;

    private final LasRanking levels;
    private final MultiLevelQueue queues;
    private final double grace;

    /** @param grace the share of a queue's lower threshold a job runs past it before its old queue may preempt it, > 0 */
    public DemotionGrace(PreemptionRule inner, LasRanking levels, MultiLevelQueue queues, double grace) {
        super(inner);
        if (!(grace > 0) || Double.isInfinite(grace)) {
            throw new IllegalArgumentException("grace must be > 0 and finite, got " + grace);
        }
        this.levels = levels;
        this.queues = queues;
        this.grace = grace;
    }

    @Override
    protected boolean admits(Job waiting, Job victim) {
        return !fromOldQueue(waiting, victim) || victim.attainedGpuSeconds()
                >= graceEnd(queues, levels.level(victim), grace) - EPS;
    }

    /** True when {@code waiting} is in the queue just above the victim's, the one a demoted victim just left. */
    private boolean fromOldQueue(Job waiting, Job victim) {
        int level = levels.level(victim);
        return level > 0 && levels.level(waiting) == level - 1;
    }

    /** Attained service at which a job of {@code level} (>= 1) leaves its grace. */
    private static double graceEnd(MultiLevelQueue queues, int level, double grace) {
        return (1 + grace) * queues.thresholdOf(level - 1);
    }

    @Override
    protected String reasonSuffix(Job waiting, Job victim) {
        return fromOldQueue(waiting, victim) ? "; past its demotion grace (" + Text.num(victim.attainedGpuSeconds())
                + " >= " + Text.num(graceEnd(queues, levels.level(victim), grace)) + " GPU-s)" : "";
    }

    /** When the next running job's grace ends while some job waits (a victim becomes available), or empty. */
    public static Optional<Instant> nextWakeUp(ClusterSnapshot snapshot, MultiLevelQueue queues, double grace) {
        return WakeUps.protectionEnds(snapshot, job -> {
            int level = queues.storedLevel(job);
            return level == 0 || job.numGpus() < 1 ? 0
                    : (graceEnd(queues, level, grace) - job.attainedGpuSeconds()) / job.numGpus();
        });
    }
}
