package io.quanta.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.chaos.infra.ChaosStack;
import io.quanta.chaos.scenario.ScenarioResult;
import io.quanta.chaos.scenario.SkewScenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The skew scenario, short: one heartbeat an hour ahead, on LogAppendTime and on CreateTime: no node lost. */
@ExtendWith(ChaosStackExtension.class)
class SkewIT {

    @Test
    void shouldLoseNoNodeAndRequeueNoJobWhenOneHeartbeatIsStampedAnHourAhead(ChaosStack stack) {
        ScenarioResult result = new SkewScenario(SkewScenario.Config.SHORT).run(stack);
        System.out.println(result.describe());

        assertThat(result.violations()).as(result.describe()).isEmpty();
        assertThat(result.figure("CreateTime: forged heartbeat dead-lettered for its skew")).isEqualTo("yes");
    }
}
