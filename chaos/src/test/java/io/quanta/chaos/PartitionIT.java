package io.quanta.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.chaos.infra.ChaosStack;
import io.quanta.chaos.scenario.PartitionScenario;
import io.quanta.chaos.scenario.ScenarioResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The partition scenario, short: a connector cut off for longer than an 8 s node timeout must have fenced its attempts
 * (4 s) before the scheduler started them elsewhere.
 */
@ExtendWith(ChaosStackExtension.class)
class PartitionIT {

    @Test
    void shouldEndTheOldAttemptBeforeTheNewOneStartsWhenANodeIsCutOff(ChaosStack stack) {
        ScenarioResult result = new PartitionScenario(PartitionScenario.Config.SHORT).run(stack);
        System.out.println(result.describe());

        assertThat(result.violations()).as(result.describe()).isEmpty();
        assertThat(result.figure("jobs requeued because part-cut was lost")).isEqualTo("2");
    }
}
