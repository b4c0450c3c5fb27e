package io.quanta.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.chaos.infra.ChaosStack;
import io.quanta.chaos.scenario.FuzzScenario;
import io.quanta.chaos.scenario.ScenarioResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The fuzz scenario, short: 1,000 bad records over the four input topics and the inbox, with valid traffic. */
@ExtendWith(ChaosStackExtension.class)
class FuzzIT {

    @Test
    void shouldDeadLetterEveryBadRecordAndKeepSchedulingWhenInputsAreFuzzed(ChaosStack stack) {
        ScenarioResult result = new FuzzScenario(FuzzScenario.Config.SHORT).run(stack);
        System.out.println(result.describe());

        assertThat(result.violations()).as(result.describe()).isEmpty();
        assertThat(result.figure("bad records sent")).isEqualTo("1000");
        assertThat(result.figure("stream-thread replacements")).isEqualTo("0");
    }
}
