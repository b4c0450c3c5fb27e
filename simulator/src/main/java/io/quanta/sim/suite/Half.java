package io.quanta.sim.suite;

import java.util.Locale;

/** Which half of the suite an input belongs to: defaults are chosen on the tuning half and reported on the check half. */
public enum Half {
    /** Inputs on which policy defaults may be tuned. */
    TUNING,
    /** Inputs on which results are reported; never used to choose a default. */
    CHECK,
    /**
     * Inputs cut from a trace outside this repository ({@code SuiteMain --held-back}): Philly periods held back to
     * check that what the two halves say generalises.
     */
    HELD_BACK;

    /** Lower-case name with '-' for '_', as in {@code --half}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
