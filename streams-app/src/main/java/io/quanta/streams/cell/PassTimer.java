package io.quanta.streams.cell;

/**
 * Measures scheduling passes for the operators' metrics. Wall-clock time goes only into the measurement, never into a
 * decision: the engine works the same with {@link #NONE}, which is what tests, the simulator's determinism checks and
 * audit replay may use.
 */
public interface PassTimer {

    /** Measures nothing. */
    PassTimer NONE = new PassTimer() {
        @Override
        public long start() {
            return 0;
        }

        @Override
        public void stop(long started) {
        }
    };

    /** Called when a pass begins; the value is handed back to {@link #stop}. */
    long start();

    /** Called when the pass (policy, plan check, application, next wake-up) is done. */
    void stop(long started);
}
