package io.quanta.topics.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quanta.embedded.Await;
import io.quanta.embedded.KafkaStack;
import io.quanta.embedded.KafkaStackExtension;
import io.quanta.schemas.JobTelemetry;
import io.quanta.topics.registry.HttpSchemaRegistryClient;
import io.quanta.topics.registry.RegistryClientSettings;
import io.quanta.topics.registry.SchemaRegistryClient;
import io.quanta.topics.registry.SchemaRegistryException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Our serde and registry client against a real broker and a real Confluent-compatible registry (Apicurio). */
@ExtendWith(KafkaStackExtension.class)
class SerdeInteroperabilityIT {

    private KafkaStack stack;
    private SchemaRegistryClient registry;
    private String topic;

    @BeforeEach
    void setUp(KafkaStack kafkaStack) throws Exception {
        stack = kafkaStack;
        registry = new HttpSchemaRegistryClient(RegistryClientSettings.of(stack.registryUrl()));
        topic = "it.telemetry." + UUID.randomUUID();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        }
    }

    @Test
    void shouldBeDecodableByPlainConsumerWhenProducedWithOurSerde() throws Exception {
        JobTelemetry sent = TestRecords.telemetry("job-42");

        produce(AvroSerde.specific(JobTelemetry.class, registry, true).serializer(), sent);
        byte[] bytes = consumeRaw(1).getFirst();

        assertThat(bytes[0]).as("magic byte").isEqualTo((byte) 0);
        int id = ByteBuffer.wrap(bytes, 1, 4).getInt();
        Schema writer = new Schema.Parser().parse(fetchSchemaText(id));
        GenericRecord decoded = new GenericDatumReader<GenericRecord>(writer).read(null,
                DecoderFactory.get().binaryDecoder(bytes, 5, bytes.length - 5, null));
        assertThat(decoded.get("jobId").toString()).isEqualTo("job-42");
        assertThat(decoded.get("minibatchesDone")).isEqualTo(1234L);
        assertThat(decoded.get("reportedAt")).isEqualTo(TestRecords.AT.toEpochMilli());
        assertThat(writer).isEqualTo(JobTelemetry.getClassSchema());
    }

    @Test
    void shouldReadOldAndNewRecordsWithCurrentClassWhenSchemaEvolvedCompatibly() throws Exception {
        GenericRecord old = TestRecords.oldTelemetry("old-job");

        produce(AvroSerde.generic(registry, true).serializer(), old);
        produce(AvroSerde.specific(JobTelemetry.class, registry, true).serializer(), TestRecords.telemetry("new-job"));
        List<byte[]> raw = consumeRaw(2);
        AvroDeserializer<JobTelemetry> reader = AvroDeserializer.specific(registry, JobTelemetry.class);

        JobTelemetry first = reader.deserialize(topic, raw.get(0));
        JobTelemetry second = reader.deserialize(topic, raw.get(1));
        assertThat(first.getJobId()).isEqualTo("old-job");
        assertThat(first.getGpuMemoryUsedMiB()).isNull();
        assertThat(first.getWindowMillis()).isZero();
        assertThat(second).isEqualTo(TestRecords.telemetry("new-job"));
        assertThat(registry.latest(SubjectNames.value(topic)).version()).isEqualTo(2);
    }

    @Test
    void shouldFindRegisteredIdWithoutRegisteringWhenAutoRegisterIsOff() {
        String subject = SubjectNames.value(topic);
        int id = registry.register(subject, JobTelemetry.getClassSchema());
        SchemaRegistryClient fresh = new HttpSchemaRegistryClient(RegistryClientSettings.of(stack.registryUrl()));

        byte[] bytes = AvroSerde.specific(JobTelemetry.class, fresh, false).serializer()
                .serialize(topic, TestRecords.telemetry("j"));

        assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt()).isEqualTo(id);
        assertThat(fresh.latest(subject).version()).isEqualTo(1);
    }

    @Test
    void shouldRefuseIncompatibleSchemaWithMessageNamingSubjectWhenRegistering() {
        String subject = SubjectNames.value(topic);
        registry.register(subject, JobTelemetry.getClassSchema());
        Schema incompatible = SchemaBuilder.record("JobTelemetry").namespace("io.quanta.schemas").fields()
                .requiredString("jobId").requiredLong("mandatoryWithoutDefault").endRecord();

        assertThat(registry.isCompatible(subject, incompatible)).isFalse();
        assertThatThrownBy(() -> registry.register(subject, incompatible))
                .isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                    assertThat(e.isIncompatible()).as("HTTP 409, got %s", e.status()).isTrue();
                    assertThat(e.subject()).contains(subject);
                })
                .hasMessageContaining(subject)
                .hasMessageContaining("409");
        GenericRecord record = new GenericData.Record(incompatible);
        record.put("jobId", "j");
        record.put("mandatoryWithoutDefault", 1L);
        assertThatThrownBy(() -> AvroSerde.generic(registry, true).serializer().serialize(topic, record))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining(subject);
    }

    private <T> void produce(Serializer<T> serializer, T value) throws Exception {
        try (KafkaProducer<String, T> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
                stack.bootstrapServers()), new StringSerializer(), serializer)) {
            producer.send(new ProducerRecord<>(topic, "key", value)).get();
        }
    }

    private List<byte[]> consumeRaw(int count) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers",
                stack.bootstrapServers(), "group.id", "it-" + UUID.randomUUID(), "auto.offset.reset", "earliest"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            List<byte[]> values = new ArrayList<>();
            Await.until(count + " records on " + topic, Duration.ofSeconds(30), () -> {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    values.add(r.value());
                }
                return values.size() >= count;
            });
            return values;
        }
    }

    private String fetchSchemaText(int id) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(stack.registryUrl() + "/schemas/ids/" + id)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return new ObjectMapper().readTree(response.body()).get("schema").asText();
    }
}
