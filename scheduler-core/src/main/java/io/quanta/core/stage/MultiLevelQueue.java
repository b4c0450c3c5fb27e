package io.quanta.core.stage;

import io.quanta.core.config.PolicyConfig;
import io.quanta.core.config.PolicyConfigKeys;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.Job;
import io.quanta.core.model.JobState;
import io.quanta.core.plan.Allocation;
import io.quanta.core.plan.Text;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Tiresias' discretised 2D-LAS queues: K queues split by attained-service thresholds T(0) < ... < T(K-2). A running
 * job is demoted when its attained service crosses its queue's threshold; with the starvation knob on, a queued job
 * in a lower queue is promoted back to queue 0 once it waited at least {@code knob x its last executed time}. A
 * promoted job that is already above its threshold runs at least {@code promoted-min-run-s} before it is demoted
 * again (so it always makes progress).
 */
public final class MultiLevelQueue {

    private static final double EPS = 1e-6;

    private final String policy;
    private final double[] thresholds;
    private final OptionalDouble knob;
    private final QueueRules rules;

    /** Tiresias' knob: a queued job is promoted after waiting knob x its last run. */
    public MultiLevelQueue(String policy, double[] thresholds, OptionalDouble knob, double promotedMinRun) {
        this(policy, thresholds, knob, QueueRules.tiresias(promotedMinRun));
    }

    public MultiLevelQueue(String policy, double[] thresholds, OptionalDouble knob, QueueRules rules) {
        this.policy = policy;
        this.thresholds = thresholds.clone();
        this.knob = knob;
        this.rules = rules;
    }

    /** The queues configured by {@code tiresias.*} keys. */
    public static MultiLevelQueue from(String policy, PolicyConfig config) {
        return new MultiLevelQueue(policy, config.get(PolicyConfigKeys.THRESHOLDS),
                config.get(PolicyConfigKeys.STARVATION_KNOB), config.get(PolicyConfigKeys.PROMOTED_MIN_RUN_S));
    }

    public int queueCount() {
        return thresholds.length + 1;
    }

    /** The queue a job with this attained service belongs to by thresholds alone. */
    public int levelFor(double attained) {
        int level = 0;
        while (level < thresholds.length && attained >= thresholds[level] - EPS) {
            level++;
        }
        return level;
    }

    /** Distance from {@code attained} to the next threshold above it, infinite in the last queue (Gittins look-ahead). */
    public double distanceToNextThreshold(double attained) {
        for (double t : thresholds) {
            if (t > attained + EPS) {
                return t - attained;
            }
        }
        return Double.POSITIVE_INFINITY;
    }

    /** Threshold that ends queue {@code level}, infinite for the last queue. */
    public double thresholdOf(int level) {
        return level < thresholds.length ? thresholds[level] : Double.POSITIVE_INFINITY;
    }

    /** The stored level, clamped to the configured number of queues. */
    public int storedLevel(Job job) {
        return Math.min(job.queueLevel(), thresholds.length);
    }

    /**
     * Records demotions of running jobs, knob promotions of queued jobs and, with {@link QueueRules#relevel()},
     * promotions of jobs whose queue's threshold rose above their attained service, as ChangeQueue decisions.
     */
    public void apply(Iterable<Job> running, Iterable<Job> queued, Allocation alloc) {
        for (Job job : running) {
            int level = storedLevel(job);
            int target = levelFor(job.attainedGpuSeconds());
            if (target > level && demotable(job, level)) {
                alloc.changeQueue(job, target, policy + ": job " + job.id() + " demoted from queue " + level
                                + " to queue " + target + " (attained " + Text.num(job.attainedGpuSeconds())
                                + " GPU-s >= threshold " + Text.num(thresholds[target - 1]) + ")",
                        Text.details("attainedGpuSeconds", Text.num(job.attainedGpuSeconds()),
                                "threshold", Text.num(thresholds[target - 1])));
            } else if (target < level && rules.relevel()) {
                relevel(job, level, target, alloc);
            }
        }
        for (Job job : queued) {
            int level = storedLevel(job);
            if (level == 0) {
                continue;
            }
            double ran = knobBasis(job);
            if (knob.isPresent() && job.waitingSeconds() >= knobWait(job) - EPS) {
                String basis = rules.knobOnWholeRun() ? "run" : "last run";
                String bound = knob.getAsDouble() * ran >= rules.knobMinWait()
                        ? Text.num(knob.getAsDouble()) + " x " + basis + " " + Text.num(ran) + " s"
                        : "the least wait " + Text.num(rules.knobMinWait()) + " s";
                alloc.changeQueue(job, 0, policy + ": job " + job.id() + " promoted from queue " + level
                                + " to queue 0 by the starvation knob (waited " + Text.num(job.waitingSeconds())
                                + " s >= " + bound + ")",
                        Text.details("waitingSeconds", Text.num(job.waitingSeconds()),
                                rules.knobOnWholeRun() ? "runSeconds" : "lastRunSeconds", Text.num(ran),
                                "knob", Text.num(knob.getAsDouble())));
            } else if (rules.relevel()) {
                int target = levelFor(job.attainedGpuSeconds());
                if (target < level) {
                    relevel(job, level, target, alloc);
                }
            }
        }
    }

    private void relevel(Job job, int level, int target, Allocation alloc) {
        alloc.changeQueue(job, target, policy + ": job " + job.id() + " moved up from queue " + level
                        + " to queue " + target + " (attained " + Text.num(job.attainedGpuSeconds())
                        + " GPU-s < threshold " + Text.num(thresholds[target]) + ", which rose)",
                Text.details("attainedGpuSeconds", Text.num(job.attainedGpuSeconds()),
                        "threshold", Text.num(thresholds[target])));
    }

    /** Seconds a queued job waits before the knob promotes it. */
    private double knobWait(Job job) {
        return Math.max(knob.getAsDouble() * knobBasis(job), rules.knobMinWait());
    }

    /** The run time the knob multiplies: the last run, or all the time the job has run. */
    private double knobBasis(Job job) {
        return rules.knobOnWholeRun() ? job.attainedGpuSeconds() / Math.max(1, job.numGpus()) : job.executedSeconds();
    }

    private boolean demotable(Job job, int level) {
        double atRunStart = job.attainedGpuSeconds() - job.numGpus() * job.executedSeconds();
        return atRunStart < thresholds[level] - EPS || job.executedSeconds() >= rules.promotedMinRun() - EPS;
    }

    /** {@link #nextWakeUp(Instant, Iterable, Iterable)} for the snapshot's RUNNING and QUEUED jobs. */
    public Optional<Instant> nextWakeUp(ClusterSnapshot snapshot) {
        return nextWakeUp(snapshot.now(), Pass.inState(snapshot, JobState.RUNNING),
                Pass.inState(snapshot, JobState.QUEUED));
    }

    /** Earliest future time a running job crosses its threshold or a queued job becomes promotable. */
    public Optional<Instant> nextWakeUp(Instant now, Iterable<Job> running, Iterable<Job> queued) {
        double best = Double.POSITIVE_INFINITY;
        for (Job job : running) {
            int level = storedLevel(job);
            if (level >= thresholds.length || job.numGpus() < 1) {
                continue;
            }
            double toCross = (thresholds[level] - job.attainedGpuSeconds()) / job.numGpus();
            double wait = toCross > EPS ? toCross : rules.promotedMinRun() - job.executedSeconds();
            if (wait > EPS) {
                best = Math.min(best, wait);
            }
        }
        if (knob.isPresent()) {
            for (Job job : queued) {
                double wait = knobWait(job) - job.waitingSeconds();
                if (storedLevel(job) > 0 && wait > EPS) {
                    best = Math.min(best, wait);
                }
            }
        }
        return Double.isInfinite(best) ? Optional.empty() : Optional.of(Text.after(now, best));
    }
}
