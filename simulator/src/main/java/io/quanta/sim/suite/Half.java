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
    HELD_BACK,
    /**
     * The windows of {@code philly_dev.csv} halfway between the suite's own windows ({@code SuiteMain --between}): most
     * of their jobs are in no input of either half, and no default was chosen on them; a check, like the held-back
     * periods, that what the halves say is not a property of where their windows happen to start.
     */
    BETWEEN;

    /** Lower-case name with '-' for '_', as in {@code --half}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
