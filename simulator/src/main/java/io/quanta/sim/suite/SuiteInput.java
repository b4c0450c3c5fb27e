package io.quanta.sim.suite;

import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.trace.Trace;
import java.util.Objects;

/**
 * One input of the evaluation suite: a trace (a window or a whole file) on a cluster size, with a seed of the model
 * mix, in one half of the suite.
 *
 * @param id short stable name, e.g. {@code w03-heavy} or {@code w01-heavy-s2}; names the output directory
 * @param half the half it belongs to
 * @param trace the jobs, submit times rebased to 0
 * @param cluster the cluster size the {@link LoadRule} chose
 * @param load {@code heavy} or {@code moderate}
 * @param fifoRatio fifo's average queueing over the mean service at this size ({@link FifoLoadProbe})
 * @param seed seed of the model-profile rule
 */
public record SuiteInput(String id, Half half, Trace trace, ClusterShape cluster, String load, double fifoRatio,
                         long seed) {

    public SuiteInput {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(half, "half");
        Objects.requireNonNull(trace, "trace");
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(load, "load");
        if (!id.matches("[a-z0-9][a-z0-9-]*")) {
            throw new IllegalArgumentException("input id must be lower-case words joined by '-', got '" + id + "'");
        }
    }

    /** This input with every submit time {@code seconds} later (see {@code SuiteMain --shift}). */
    public SuiteInput shifted(long seconds) {
        return new SuiteInput(id, half, trace.shifted(seconds), cluster, load, fifoRatio, seed);
    }

    /** The no-queueing floor of the average JCT: the trace's mean service time. */
    public double floorSeconds() {
        return trace.meanDurationSeconds();
    }
}
