package io.quanta.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.chaos.infra.ChaosStack;
import io.quanta.chaos.scenario.GangScenario;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The gang scenario, short: one member of a two-node gang killed, the other cut off; the job must not start again
 * before the cut-off member ended the previous attempt.
 */
@ExtendWith(ChaosStackExtension.class)
class GangIT {

    @Test
    @Disabled("scheduler: a gang attempt ended by one member (LOST) frees all its GPUs and restarts the job at once; "
            + "it must wait for the other members' end events (or their nodes' loss) first. Needs a streams-app "
            + "change (CellEngine / JobTransitions.attemptEnded): issue 13, found by the crash scenario")
    void shouldNotRestartAGangBeforeEveryMemberEndedThePreviousAttempt(ChaosStack stack) {
        ScenarioResult result = new GangScenario(GangScenario.Config.SHORT).run(stack);
        System.out.println(result.describe());

        assertThat(result.violations()).as(result.describe()).isEmpty();
    }
}
