package io.quanta.topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import io.quanta.topics.config.QuantaConfig;
import io.quanta.topics.registry.InMemorySchemaRegistryClient;
import io.quanta.topics.serde.AvroSerdeFactory;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class TopicCatalogueTest {

    private final AvroSerdeFactory serdes = new AvroSerdeFactory(new InMemorySchemaRegistryClient(), true);

    @Test
    void shouldDescribeTenTopicsWithDefaultNamesWhenNotConfigured() {
        TopicCatalogue catalogue = TopicCatalogue.from(config(Map.of()), serdes);

        assertThat(catalogue.all()).extracting(TopicSpec::name).containsExactly("quanta.jobs.submissions",
                "quanta.nodes.heartbeats", "quanta.jobs.telemetry", "quanta.jobs.events", "quanta.cells.inbox",
                "quanta.nodes.commands", "quanta.scheduler.decisions", "quanta.jobs.status", "quanta.deadletter",
                "quanta.nodes.admissions");
        assertThat(catalogue.all()).allSatisfy(spec -> assertThat(spec.keySerde().serializer())
                .isInstanceOf(StringSerializer.class));
    }

    @Test
    void shouldKeepInboxAndDecisionsForeverAndCompactStatus() {
        TopicCatalogue catalogue = TopicCatalogue.from(config(Map.of()), serdes);

        assertThat(catalogue.inbox().retentionMs()).isEqualTo(TopicSpec.INFINITE_RETENTION);
        assertThat(catalogue.decisions().retentionMs()).isEqualTo(TopicSpec.INFINITE_RETENTION);
        assertThat(catalogue.status().cleanupPolicy()).isEqualTo(CleanupPolicy.COMPACT);
        assertThat(catalogue.status().topicConfigs()).containsExactly(Map.entry("cleanup.policy", "compact"),
                Map.entry("message.timestamp.type", "CreateTime"));
        assertThat(catalogue.inbox().topicConfigs()).containsEntry("retention.ms", "-1");
        assertThat(catalogue.events().cleanupPolicy()).isEqualTo(CleanupPolicy.DELETE);
    }

    @Test
    void shouldLetTheBrokerStampEveryInputSoNoProducerClockBecomesSchedulerTime() {
        TopicCatalogue catalogue = TopicCatalogue.from(config(Map.of()), serdes);

        for (TopicSpec<String, ?> input : List.of(catalogue.submissions(), catalogue.heartbeats(),
                catalogue.telemetry(), catalogue.events())) {
            assertThat(input.topicConfigs()).as(input.name()).containsEntry("message.timestamp.type", "LogAppendTime");
        }
        for (TopicSpec<String, ?> output : List.of(catalogue.inbox(), catalogue.commands(), catalogue.decisions(),
                catalogue.status(), catalogue.deadLetter())) {
            assertThat(output.topicConfigs()).as(output.name()).containsEntry("message.timestamp.type", "CreateTime");
        }
    }

    @Test
    void shouldUseConfiguredNamesPartitionsAndReplicationWhenSet() {
        TopicCatalogue catalogue = TopicCatalogue.from(config(Map.of("topic.inbox.name", "test.inbox",
                "topic.inbox.partitions", "7", "topic.replication.factor", "3",
                "topic.events.retention.ms", "1000")), serdes);

        assertThat(catalogue.inbox().name()).isEqualTo("test.inbox");
        assertThat(catalogue.inbox().partitions()).isEqualTo(7);
        assertThat(catalogue.inbox().replicationFactor()).isEqualTo((short) 3);
        assertThat(catalogue.inbox().newTopic().replicationFactor()).isEqualTo((short) 3);
        assertThat(catalogue.events().retentionMs()).isEqualTo(1000L);
        assertThat(catalogue.spec(QuantaTopic.INBOX)).isSameAs(catalogue.inbox());
    }

    @Test
    void shouldLeaveReplicationToBrokerWhenFactorIsMinusOne() {
        TopicSpec<String, ?> inbox = TopicCatalogue.from(config(Map.of()), serdes).inbox();

        assertThat(inbox.newTopic().replicationFactor()).isEqualTo((short) -1);
        assertThat(inbox.newTopic().numPartitions()).isEqualTo(3);
    }

    @Test
    void shouldRoundTripValuesAndReadTombstonesWhenUsingStatusSerde() {
        TopicSpec<String, JobStatus> status = TopicCatalogue.from(config(Map.of()), serdes).status();
        JobStatus value = JobStatus.newBuilder().setJobId("j").setState(JobState.QUEUED)
                .setUpdatedAt(Instant.parse("2025-01-01T00:00:00Z")).build();

        byte[] bytes = status.valueSerde().serializer().serialize(status.name(), value);

        assertThat(status.valueSerde().deserializer().deserialize(status.name(), bytes)).isEqualTo(value);
        assertThat(status.valueSerde().deserializer().deserialize(status.name(), null)).isNull();
        assertThat(status.valueSubject()).isEqualTo("quanta.jobs.status-value");
    }

    @Test
    void shouldNameRegistryKeyWhenAdministrationCatalogueSerdeIsUsed() {
        TopicCatalogue catalogue = TopicCatalogue.forAdministration(config(Map.of()));

        assertThat(catalogue.all()).hasSize(10);
        assertThatThrownBy(() -> catalogue.events().valueSerde().serializer().serialize("t", null))
                .isInstanceOf(ConfigException.class).hasMessageContaining("schema.registry.url");
    }

    private static QuantaConfig config(Map<String, String> values) {
        return QuantaConfig.builder().sections(TopicCatalogue.configSections()).overrides(values).build();
    }
}
