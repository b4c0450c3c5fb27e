package io.quanta.core.stage;

import io.quanta.core.model.GpuId;
import io.quanta.core.model.Job;
import io.quanta.core.plan.Allocation;
import java.util.List;

/**
 * The last fallback for a gang that neither starts, preempts nor packs: once it has waited {@code afterSeconds} since
 * it was last queued, it holds back the free and soon-free GPUs of the servers nearest to holding it
 * ({@link io.quanta.core.plan.GpuPool#nearestTo}), so that jobs after it in this pass cannot take them. Without it, the
 * GPUs that free up one by one on a server go to the next small job each time, and a large gang (often one that was
 * preempted) waits until one pass happens to find a whole server free. With it they add up until the gang fits, at
 * the cost of GPUs left idle meanwhile; that is why only one job per pass holds GPUs back, the first in priority order
 * that qualifies (as in EASY backfilling, whose one reservation for the head of the queue bounds the idle GPUs).
 * The job still waits (it is left for packing and de-fragmentation, and its waiting reason names the GPUs); the next
 * pass decides again from its snapshot. It needs no wake-up of its own: holding GPUs back matters only in a pass in
 * which a job behind the gang could take them, and such a pass follows an event (a job ends, is suspended, arrives).
 * One instance per pass.
 */
public final class GangReservation implements FallbackStep {

    private final double afterSeconds;
    private boolean held;

    /** @param afterSeconds how long a gang waits since it was last queued before it holds GPUs back (> 0) */
    public GangReservation(double afterSeconds) {
        if (!(afterSeconds > 0) || Double.isInfinite(afterSeconds)) {
            throw new IllegalArgumentException("afterSeconds must be a finite number > 0, got " + afterSeconds);
        }
        this.afterSeconds = afterSeconds;
    }

    @Override
    public boolean handle(Job waiting, Allocation alloc) {
        if (held || waiting.numGpus() < 2 || waiting.waitingSeconds() < afterSeconds
                || alloc.pool().totalFree() + alloc.pool().totalSoon() == 0) {
            return false;
        }
        List<GpuId> gpus = alloc.pool().nearestTo(waiting.numGpus(), waiting.gpuType());
        if (!gpus.isEmpty()) {
            held = true;
            alloc.holdBack(waiting, gpus);
        }
        return false;
    }
}
