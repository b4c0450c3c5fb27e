package io.quanta.chaos.scenario;

import io.quanta.chaos.infra.ChaosStack;

/** One fault-injection scenario: runs its cluster on the shared stack, injects its faults, checks its promises. */
public interface Scenario {

    String name();

    /** Runs the scenario; a broken promise is a violation in the result, never an exception. */
    ScenarioResult run(ChaosStack stack);
}
