package io.quanta.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EngineParamsTest {

    @Test
    void shouldSetTheTelemetryWindowAndKeepTheKeyFromThePolicy() {
        Map<String, String> params = Map.of("policy", "quanta", "sim.telemetry-window-s", "2.5",
                "quanta.unpack", "on");

        assertThat(EngineParams.apply(EngineSettings.defaults(), params).telemetryWindow())
                .isEqualTo(Duration.ofMillis(2_500));
        assertThat(EngineParams.policyOnly(params)).containsOnlyKeys("policy", "quanta.unpack");
        assertThat(EngineParams.apply(EngineSettings.defaults(), Map.of("policy", "fifo")))
                .isEqualTo(EngineSettings.defaults());
    }

    @Test
    void shouldRefuseAnUnknownSimulationKeyOrABadWindowWithItsReason() {
        assertThatThrownBy(() -> EngineParams.apply(EngineSettings.defaults(), Map.of("sim.telemetry-windows", "10")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown simulation key 'sim.telemetry-windows'")
                .hasMessageContaining("sim.telemetry-window-s");
        assertThatThrownBy(() -> EngineParams.apply(EngineSettings.defaults(), Map.of("sim.telemetry-window-s", "ten")))
                .hasMessageContaining("must be a number of seconds, got 'ten'");
        for (String bad : new String[] {"-1", "NaN", "3601"}) {
            assertThatThrownBy(() -> EngineParams.apply(EngineSettings.defaults(),
                    Map.of("sim.telemetry-window-s", bad)))
                    .hasMessageContaining("must be between 0 and 3600 s, got " + bad);
        }
        assertThatThrownBy(() -> EngineParams.apply(EngineSettings.defaults(),
                Map.of("sim.telemetry-window-s", "0.0004")))
                .hasMessageContaining("must be 0 or at least 0.001 s, got 0.0004");
        assertThatThrownBy(() -> EngineParams.validate(Map.of("policy", "quanta", "sim.telemetry-window-s", "10",
                "quanta.no-such-key", "1")))
                .hasMessageContaining("quanta.no-such-key");
    }
}
