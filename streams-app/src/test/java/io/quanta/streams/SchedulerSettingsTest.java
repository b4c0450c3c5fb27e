package io.quanta.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.core.config.PolicyConfigKeys;
import io.quanta.streams.app.SchedulerStreamsConfig;
import io.quanta.topics.config.QuantaConfig;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

class SchedulerSettingsTest {

    @Test
    void shouldReadPolicyParametersRoutingAndTimingFromTheSchedulerKeys() {
        QuantaConfig config = QuantaConfig.of(Map.of(
                "scheduler.policy", "tiresias-las",
                "scheduler.policy.tiresias.thresholds", "100,200",
                "scheduler.policy.quotas", "vision:64",
                "scheduler.pass.interval.ms", "5000",
                "scheduler.node.timeout.ms", "20000",
                "scheduler.routing.tenants", "nlp:cell-b",
                "scheduler.routing.default.cell", "cell-x"));

        SchedulerSettings settings = SchedulerSettings.from(config);

        assertThat(settings.policy().policyName()).isEqualTo("tiresias-las");
        assertThat(settings.policy().effective()).containsEntry("tiresias.thresholds", "100,200");
        assertThat(settings.policy().quotas()).containsEntry("vision", 64);
        assertThat(settings.passInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(settings.nodeTimeout()).isEqualTo(Duration.ofSeconds(20));
        assertThat(settings.routing().tenantCells()).containsEntry("nlp", "cell-b");
        assertThat(settings.routing().defaultCell()).isEqualTo("cell-x");
    }

    @Test
    void shouldDefaultToTheCorePolicyAndALowLatencyCommitInterval() {
        SchedulerSettings settings = SchedulerSettings.defaults();

        assertThat(settings.policy().policyName()).isEqualTo(PolicyConfigKeys.POLICY.defaultValue());
        assertThat(settings.passInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(settings.nodeTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings.commitInterval()).isEqualTo(Duration.ofMillis(20));
        assertThat(settings.routing().defaultCell()).isEqualTo("cell-0");
    }

    @Test
    void shouldRefuseABadPolicyParameterNamingTheKey() {
        assertThatThrownBy(() -> QuantaConfig.of(Map.of("scheduler.policy.tiresias.thresholds", "9,3")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("scheduler.policy.tiresias.thresholds");
        assertThatThrownBy(() -> QuantaConfig.of(Map.of("scheduler.polcy", "fifo")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("scheduler.polcy");
        assertThatThrownBy(() -> QuantaConfig.of(Map.of("scheduler.routing.tenants", "novalue")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("tenant:cell");
    }

    @Test
    void shouldRunExactlyOnceWithTheConfiguredCommitIntervalAndStandbys() {
        QuantaConfig config = QuantaConfig.of(Map.of("scheduler.standby.replicas", "1",
                "scheduler.commit.interval.ms", "50", "bootstrap.servers", "b:9092"));

        Properties props = SchedulerStreamsConfig.of(config, SchedulerSettings.from(config), Optional.of("h:1"));

        assertThat(props).containsEntry(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2)
                .containsEntry(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "50")
                .containsEntry(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, "1")
                .containsEntry(StreamsConfig.APPLICATION_SERVER_CONFIG, "h:1")
                .containsEntry(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "b:9092");
    }

    @Test
    void shouldNoticeACrashedInstanceBeforeTheNodeTimeoutWhenDefaultsAreUsed() {
        QuantaConfig config = QuantaConfig.of(Map.of("bootstrap.servers", "b:9092"));
        SchedulerSettings settings = SchedulerSettings.from(config);

        Properties props = SchedulerStreamsConfig.of(config, settings, Optional.empty());

        assertThat(props).containsEntry("session.timeout.ms", "15000").containsEntry("heartbeat.interval.ms", "5000");
        assertThat(SchedulerStreamsConfig.failoverWarning(props, settings.nodeTimeout())).isEmpty();
    }

    @Test
    void shouldWarnWhenTheNodeTimeoutIsShorterThanAFailoverWhenTheSessionTimeoutIsRaised() {
        QuantaConfig config = QuantaConfig.of(Map.of("bootstrap.servers", "b:9092", "session.timeout.ms", "45000"));
        SchedulerSettings settings = SchedulerSettings.from(config);

        Properties props = SchedulerStreamsConfig.of(config, settings, Optional.empty());

        assertThat(props).containsEntry("session.timeout.ms", "45000");
        assertThat(SchedulerStreamsConfig.failoverWarning(props, settings.nodeTimeout())).hasValueSatisfying(w ->
                assertThat(w).contains("scheduler.node.timeout.ms (30000)", "45000 ms", "healthy nodes may be declared lost"));
    }
}
