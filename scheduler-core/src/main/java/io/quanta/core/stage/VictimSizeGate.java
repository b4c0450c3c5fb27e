package io.quanta.core.stage;

import io.quanta.core.model.Job;

/**
 * A waiting job preempts only running jobs that hold no more GPUs than it asks for. Suspending a larger gang to place
 * a smaller job frees GPUs the waiting job does not use, and the gang, consolidated on one server, then waits for a
 * whole free server to start again: on a loaded cell that can take days, and the longest gangs make the p99. Under
 * this gate small jobs take GPUs from small jobs of lower queues, and a gang is preempted only by a gang at least as
 * large.
 */
public final class VictimSizeGate extends PreemptionGate {

    public VictimSizeGate(PreemptionRule inner) {
        super(inner);
    }

    @Override
    protected boolean admits(Job waiting, Job victim) {
        return victim.numGpus() <= waiting.numGpus();
    }

    @Override
    protected String reasonSuffix(Job waiting, Job victim) {
        return "";
    }
}
