package io.quanta.sim.metrics;

/**
 * The cluster at one instant of a simulation.
 *
 * @param atSeconds time since the simulation origin
 * @param allocatedGpus GPUs held by at least one attempt
 * @param usefulGpus full-speed GPU equivalents of progress (sum over running attempts of GPUs x speed)
 * @param runningJobs jobs holding GPUs
 * @param queuedJobs jobs submitted, not finished and not holding GPUs
 */
public record TimelineSample(double atSeconds, int allocatedGpus, double usefulGpus, int runningJobs,
                             int queuedJobs) {
}
