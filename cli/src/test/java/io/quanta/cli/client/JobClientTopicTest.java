package io.quanta.cli.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.topics.config.QuantaConfig;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Where the CLI writes submissions and cancellations, with and without tenant authentication. */
class JobClientTopicTest {

    private static JobClient client(Map<String, String> settings) {
        return new JobClient(ClusterAccess.of(QuantaConfig.of(settings)), Clock.systemUTC());
    }

    @Test
    void shouldWriteToTheSharedTopicWhenTenantsAreNotAuthenticated() {
        assertThat(client(Map.of("schema.registry.url", "http://127.0.0.1:1")).topicFor(Optional.of("vision")))
                .isEqualTo("quanta.jobs.submissions");
    }

    @Test
    void shouldWriteToTheTenantsOwnTopicWhenTenantsAreAuthenticatedByTopic() {
        JobClient client = client(Map.of("schema.registry.url", "http://127.0.0.1:1", "scheduler.tenant.topics",
                "true"));

        assertThat(client.topicFor(Optional.of("vision"))).isEqualTo("quanta.jobs.submissions.vision");
        assertThatThrownBy(() -> client.topicFor(Optional.empty())).hasMessageContaining("--tenant");
        assertThatThrownBy(() -> client.topicFor(Optional.of("../x"))).hasMessageContaining("is not 1 to 64");
    }
}
