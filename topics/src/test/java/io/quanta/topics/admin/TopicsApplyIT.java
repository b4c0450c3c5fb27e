package io.quanta.topics.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.embedded.KafkaStack;
import io.quanta.embedded.KafkaStackExtension;
import io.quanta.topics.QuantaTopic;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.config.QuantaConfig;
import io.quanta.topics.registry.InMemorySchemaRegistryClient;
import io.quanta.topics.serde.AvroSerdeFactory;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link TopicsApply} against a real broker. */
@ExtendWith(KafkaStackExtension.class)
class TopicsApplyIT {

    private Admin admin;
    private TopicCatalogue catalogue;

    @BeforeEach
    void setUp(KafkaStack stack) {
        admin = Admin.create(Map.<String, Object>of("bootstrap.servers", stack.bootstrapServers()));
        String prefix = "it" + UUID.randomUUID().toString().substring(0, 8) + ".";
        Map<String, String> values = new HashMap<>();
        for (QuantaTopic topic : QuantaTopic.values()) {
            values.put(topic.nameKey(), prefix + topic.defaultName());
            values.put(topic.partitionsKey(), "2");
        }
        QuantaConfig config = QuantaConfig.builder().sections(TopicCatalogue.configSections()).overrides(values).build();
        catalogue = TopicCatalogue.from(config, new AvroSerdeFactory(new InMemorySchemaRegistryClient(), true));
    }

    @AfterEach
    void tearDown() {
        admin.close();
    }

    @Test
    void shouldCreateMissingTopicsThenReportOkWhenAppliedTwice() throws Exception {
        TopicsApply apply = new TopicsApply(admin, Duration.ofSeconds(30));

        List<TopicApplyResult> first = apply.apply(catalogue.all());
        List<TopicApplyResult> second = apply.apply(catalogue.all());

        assertThat(first).hasSize(10).allSatisfy(r -> assertThat(r.outcome()).isEqualTo(TopicApplyResult.Outcome.CREATED));
        assertThat(second).hasSize(10).allSatisfy(r -> assertThat(r.outcome()).isEqualTo(TopicApplyResult.Outcome.OK));
        assertThat(admin.describeTopics(List.of(catalogue.inbox().name())).allTopicNames().get()
                .get(catalogue.inbox().name()).partitions()).hasSize(2);
    }

    @Test
    void shouldReportDriftWithDetailsWhenExistingTopicDiffers() throws Exception {
        String inbox = catalogue.inbox().name();
        admin.createTopics(List.of(new NewTopic(inbox, 1, (short) 1)
                .configs(Map.of("cleanup.policy", "compact")))).all().get();

        List<TopicApplyResult> results = new TopicsApply(admin, Duration.ofSeconds(30)).apply(catalogue.all());

        TopicApplyResult inboxResult = results.stream().filter(r -> r.topic().equals(inbox)).findFirst().orElseThrow();
        assertThat(inboxResult.outcome()).isEqualTo(TopicApplyResult.Outcome.DRIFT);
        assertThat(inboxResult.drift()).containsExactlyInAnyOrder("partitions: expected 2, found 1",
                "cleanup.policy: expected delete, found compact");
        assertThat(results).filteredOn(r -> !r.topic().equals(inbox))
                .allSatisfy(r -> assertThat(r.outcome()).isEqualTo(TopicApplyResult.Outcome.CREATED));
    }
}
