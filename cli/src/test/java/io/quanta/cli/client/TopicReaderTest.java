package io.quanta.cli.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import io.quanta.topics.registry.InMemorySchemaRegistryClient;
import io.quanta.topics.serde.AvroSerde;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.internals.AutoOffsetResetStrategy;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class TopicReaderTest {

    private static final String TOPIC = "quanta.jobs.status";

    @Test
    void shouldSkipAndCountUnreadableRecordsAndKeepReading() {
        AvroSerde<JobStatus> serde = AvroSerde.specific(JobStatus.class, new InMemorySchemaRegistryClient(), true);
        MockConsumer<String, byte[]> consumer = new MockConsumer<>(AutoOffsetResetStrategy.EARLIEST.name());
        TopicPartition partition = new TopicPartition(TOPIC, 0);
        consumer.updatePartitions(TOPIC, List.of(new PartitionInfo(TOPIC, 0, null, null, null)));
        consumer.updateBeginningOffsets(Map.of(partition, 0L));
        consumer.updateEndOffsets(Map.of(partition, 3L));
        JobStatus status = JobStatus.newBuilder().setJobId("j1").setTenant("t").setState(JobState.RUNNING)
                .setNumGpus(1).setSubmittedAt(Instant.EPOCH).setUpdatedAt(Instant.EPOCH).build();
        consumer.schedulePollTask(() -> {
            consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, 0, "j0", "garbage".getBytes(StandardCharsets.UTF_8)));
            consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, 1, "j0", new byte[] {0, 0, 0, 0, 99}));
            consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, 2, "j1", serde.serializer().serialize(TOPIC, status)));
        });
        TopicReader<JobStatus> reader = new TopicReader<>(consumer, TOPIC, serde.deserializer(),
                Duration.ofSeconds(5));

        Map<String, JobStatus> latest = reader.latestByKey(Optional.empty());

        assertThat(latest).containsOnlyKeys("j1");
        assertThat(reader.skipped()).isEqualTo(2);
    }
}
