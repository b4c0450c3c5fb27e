package io.quanta.node.runner;

import java.util.OptionalInt;

/**
 * Progress of a running attempt as its runner measures it (the simulated runner; real jobs report through telemetry).
 *
 * @param attempt the attempt
 * @param minibatchesDone minibatches done in total, including before a resume
 * @param gpuMemoryUsedMiB GPU memory it uses, when known
 */
public record AttemptProgress(AttemptId attempt, long minibatchesDone, OptionalInt gpuMemoryUsedMiB) {
}
