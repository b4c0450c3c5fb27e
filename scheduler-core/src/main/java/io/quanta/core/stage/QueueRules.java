package io.quanta.core.stage;

/**
 * How a {@link MultiLevelQueue} moves jobs between its queues beyond demotion at a threshold.
 *
 * @param promotedMinRun seconds a promoted job already above its threshold runs before it is demoted again
 * @param knobOnWholeRun true to promote after waiting knob x all the time the job has run (its attained service over
 *                       its GPUs) instead of its last run: a promoted job that is preempted again after a short run
 *                       then waits longer each time, instead of coming back after knob x that short run to preempt
 *                       another (a preemption storm among similar long jobs)
 * @param relevel        true to move a job back up to the queue its attained service belongs to when the thresholds
 *                       rose above it (thresholds learned from the cell's jobs start low: the short jobs complete
 *                       first), false to move jobs up only by the starvation knob
 * @param knobMinWait    seconds a job waits at least before the starvation knob promotes it, whatever its last run
 */
public record QueueRules(double promotedMinRun, boolean knobOnWholeRun, boolean relevel, double knobMinWait) {

    public QueueRules {
        if (!(promotedMinRun >= 0) || !(knobMinWait >= 0)) {
            throw new IllegalArgumentException("promotedMinRun and knobMinWait must be >= 0");
        }
    }

    /** Tiresias' rules: demotion at thresholds, the knob on the last run, a promoted job runs this long at least. */
    public static QueueRules tiresias(double promotedMinRun) {
        return new QueueRules(promotedMinRun, false, false, 0);
    }
}
