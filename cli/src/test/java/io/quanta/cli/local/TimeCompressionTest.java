package io.quanta.cli.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.core.config.ConfigKey;
import io.quanta.core.config.PolicyConfig;
import io.quanta.core.config.PolicyConfigKeys;
import io.quanta.streams.SchedulerConfigSection;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TimeCompressionTest {

    @Test
    void shouldDivideTimeParametersBySpeedWhenCompressing() {
        Map<String, String> out = new TimeCompression(100).schedulerOverrides(Map.of("tiresias.thresholds",
                "1000,5000"), 10_000);

        assertThat(out).containsEntry("scheduler.policy.tiresias.thresholds", "10,50")
                .containsEntry("scheduler.policy.gandiva.quantum-s", "0.6")
                .containsEntry(SchedulerConfigSection.PASS_INTERVAL_MS, "100");
    }

    @Test
    void shouldKeepPassIntervalAboveFloorWhenSpeedIsHigh() {
        Map<String, String> out = new TimeCompression(100_000).schedulerOverrides(Map.of(), 10_000);

        assertThat(out.get(SchedulerConfigSection.PASS_INTERVAL_MS))
                .isEqualTo(Long.toString(TimeCompression.MIN_PASS_INTERVAL_MS));
    }

    @Test
    void shouldChangeNothingWhenSpeedIsOne() {
        assertThat(new TimeCompression(1).schedulerOverrides(Map.of(), 10_000)).isEmpty();
    }

    @Test
    void shouldProduceValidPolicyConfigurationWhenCompressingEveryDefault() {
        Map<String, String> params = new HashMap<>();
        params.put("policy", "quanta");
        new TimeCompression(600).schedulerOverrides(Map.of(), 10_000).forEach((k, v) -> {
            if (k.startsWith(SchedulerConfigSection.POLICY_PARAM_PREFIX)) {
                params.put(k.substring(SchedulerConfigSection.POLICY_PARAM_PREFIX.length()), v);
            }
        });

        assertThat(PolicyConfig.of(params).policyName()).isEqualTo("quanta");
    }

    @Test
    void shouldCoverEveryPolicyParameterMeasuredInSecondsWhenListingTimeKeys() {
        for (ConfigKey<?> key : PolicyConfigKeys.ALL) {
            boolean inSeconds = key.allowed().contains("seconds") || key.name().endsWith("-s");
            assertThat(TimeCompression.TIME_KEYS.contains(key)).as(key.name() + " is measured in seconds: compress it")
                    .isEqualTo(inSeconds);
        }
    }

    @Test
    void shouldRefuseSpeedBelowOneWhenCreated() {
        assertThatThrownBy(() -> new TimeCompression(0.5)).hasMessageContaining("--speed");
    }
}
