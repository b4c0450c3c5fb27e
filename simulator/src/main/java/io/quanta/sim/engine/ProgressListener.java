package io.quanta.sim.engine;

/** Told about the progress of a run after each step of the event loop; must be cheap (throttle inside). */
@FunctionalInterface
public interface ProgressListener {

    /** Does nothing. */
    ProgressListener NONE = (finished, total, simulatedSeconds, last) -> { };

    /**
     * @param terminalJobs jobs finished (or failed, rejected, cancelled) so far
     * @param totalJobs jobs in the trace
     * @param simulatedSeconds virtual seconds since the origin
     * @param last whether the run has ended
     */
    void onProgress(int terminalJobs, int totalJobs, double simulatedSeconds, boolean last);
}
