package io.quanta.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.chaos.infra.ChaosStack;
import io.quanta.chaos.scenario.CrashScenario;
import io.quanta.chaos.scenario.ScenarioResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The crash scenario, short: three scheduler kill -9s, one connector kill -9, one registry restart. */
@ExtendWith(ChaosStackExtension.class)
class CrashIT {

    @Test
    void shouldLoseNoJobAndRunNothingTwiceWhenSchedulerConnectorAndRegistryAreKilled(ChaosStack stack) {
        ScenarioResult result = new CrashScenario(CrashScenario.Config.SHORT).run(stack);
        System.out.println(result.describe());

        assertThat(result.violations()).as(result.describe()).isEmpty();
        assertThat(result.figure("scheduler kill -9s survived")).isEqualTo("3");
        assertThat(result.figure("connector kill -9s")).isEqualTo("1");
    }
}
