package io.quanta.core.stage;

import io.quanta.core.model.Job;
import io.quanta.core.plan.Allocation;

/**
 * What the allocate action tries, in order, for a waiting job that does not fit the free GPUs: plan a preemption,
 * pack it onto shared GPUs, etc. Returns true when the job is taken care of in this pass (packed, GPUs earmarked,
 * victims suspended).
 */
@FunctionalInterface
public interface FallbackStep {

    boolean handle(Job waiting, Allocation alloc);
}
