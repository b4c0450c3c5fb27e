package io.quanta.topics.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.schemas.JobStatus;
import io.quanta.schemas.JobTelemetry;
import io.quanta.topics.registry.InMemorySchemaRegistryClient;
import io.quanta.topics.registry.SchemaRegistryException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class AvroSerdeTest {

    private static final String TOPIC = "quanta.jobs.telemetry";

    private final InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();
    private final AvroSerde<JobTelemetry> serde = AvroSerde.specific(JobTelemetry.class, registry, true);

    @Test
    void shouldRoundTripSpecificRecordWhenSerializedAndDeserialized() {
        JobTelemetry record = TestRecords.telemetry("job-1");

        byte[] bytes = serde.serializer().serialize(TOPIC, record);

        assertThat(serde.deserializer().deserialize(TOPIC, bytes)).isEqualTo(record);
    }

    @Test
    void shouldWriteConfluentHeaderWithRegisteredIdWhenSerializing() {
        byte[] bytes = serde.serializer().serialize(TOPIC, TestRecords.telemetry("job-1"));

        int registeredId = registry.latest(TOPIC + "-value").id();
        assertThat(bytes[0]).isEqualTo((byte) 0);
        assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt()).isEqualTo(registeredId);
        assertThat(registry.schemaById(registeredId)).isEqualTo(JobTelemetry.getClassSchema());
    }

    @Test
    void shouldRoundTripGenericRecordWhenUsingGenericSerde() {
        Schema schema = SchemaBuilder.record("Thing").namespace("test").fields().requiredString("name")
                .optionalInt("size").endRecord();
        GenericRecord record = new GenericData.Record(schema);
        record.put("name", "x");
        record.put("size", 7);
        AvroSerde<GenericRecord> generic = AvroSerde.generic(registry, true);

        GenericRecord read = generic.deserializer().deserialize("t", generic.serializer().serialize("t", record));

        assertThat(read.get("name").toString()).isEqualTo("x");
        assertThat(read.get("size")).isEqualTo(7);
    }

    @Test
    void shouldReadOldWriterDataWithCurrentClassWhenSchemaEvolvedCompatibly() {
        GenericRecord old = TestRecords.oldTelemetry("job-9");
        byte[] bytes = AvroSerde.generic(registry, true).serializer().serialize(TOPIC, old);

        JobTelemetry read = serde.deserializer().deserialize(TOPIC, bytes);

        assertThat(read.getJobId()).isEqualTo("job-9");
        assertThat(read.getReportedAt()).isEqualTo(TestRecords.AT);
        assertThat(read.getWindowMillis()).isZero();
        assertThat(read.getGpuMemoryUsedMiB()).isNull();
        assertThat(registry.latest(TOPIC + "-value").version()).isEqualTo(1);
    }

    @Test
    void shouldRejectIncompatibleSchemaWhenRegisteringUnderSameSubject() {
        serde.serializer().serialize(TOPIC, TestRecords.telemetry("job-1"));
        Schema incompatible = SchemaBuilder.record("JobTelemetry").namespace("io.quanta.schemas").fields()
                .requiredString("jobId").requiredString("mustHaveThis").endRecord();
        GenericRecord record = new GenericData.Record(incompatible);
        record.put("jobId", "j");
        record.put("mustHaveThis", "v");

        assertThatThrownBy(() -> AvroSerde.generic(registry, true).serializer().serialize(TOPIC, record))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("quanta.jobs.telemetry-value")
                .hasMessageContaining("409")
                .hasCauseInstanceOf(SchemaRegistryException.class);
    }

    @Test
    void shouldFailWhenAutoRegisterIsOffAndSchemaIsUnknown() {
        AvroSerde<JobTelemetry> noRegister = AvroSerde.specific(JobTelemetry.class, registry, false);

        assertThatThrownBy(() -> noRegister.serializer().serialize(TOPIC, TestRecords.telemetry("j")))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("quanta.jobs.telemetry-value");
    }

    @Test
    void shouldSerializeNullAsNullWhenValueIsTombstone() {
        assertThat(serde.serializer().serialize(TOPIC, null)).isNull();
    }

    @Test
    void shouldReadNullAsNullWhenTombstonesAccepted() {
        AvroSerde<JobStatus> status = AvroSerde.specific(JobStatus.class, registry, true).acceptingTombstones();

        assertThat(status.deserializer().deserialize("quanta.jobs.status", null)).isNull();
        JobStatus record = TestRecords.status("job-3");
        assertThat(status.deserializer().deserialize("quanta.jobs.status",
                status.serializer().serialize("quanta.jobs.status", record))).isEqualTo(record);
    }

    @Test
    void shouldThrowMalformedWhenBytesAreNull() {
        assertMalformed(null, MalformedRecordException.Reason.NULL_BYTES);
    }

    @Test
    void shouldThrowMalformedWhenBytesAreEmpty() {
        assertMalformed(new byte[0], MalformedRecordException.Reason.EMPTY);
    }

    @Test
    void shouldThrowMalformedWhenMagicByteIsWrong() {
        byte[] bytes = serde.serializer().serialize(TOPIC, TestRecords.telemetry("j"));
        bytes[0] = 1;

        assertMalformed(bytes, MalformedRecordException.Reason.BAD_MAGIC_BYTE);
    }

    @Test
    void shouldThrowMalformedWhenHeaderIsIncomplete() {
        assertMalformed(new byte[] {0, 0, 1}, MalformedRecordException.Reason.TOO_SHORT);
    }

    @Test
    void shouldThrowMalformedWhenSchemaIdIsUnknown() {
        byte[] bytes = serde.serializer().serialize(TOPIC, TestRecords.telemetry("j"));
        ByteBuffer.wrap(bytes).putInt(1, 4242);

        assertMalformed(bytes, MalformedRecordException.Reason.UNKNOWN_SCHEMA_ID);
    }

    @Test
    void shouldThrowMalformedWhenPayloadIsTruncated() {
        byte[] bytes = serde.serializer().serialize(TOPIC, TestRecords.telemetry("j"));

        assertMalformed(Arrays.copyOf(bytes, bytes.length - 4), MalformedRecordException.Reason.UNREADABLE_PAYLOAD);
    }

    @Test
    void shouldThrowMalformedWhenBytesFollowTheRecord() {
        byte[] bytes = serde.serializer().serialize(TOPIC, TestRecords.telemetry("j"));

        assertMalformed(Arrays.copyOf(bytes, bytes.length + 3), MalformedRecordException.Reason.TRAILING_BYTES);
    }

    @Test
    void shouldThrowMalformedWhenAStringLengthPrefixAsksForGigabytes() {
        byte[] header = Arrays.copyOf(serde.serializer().serialize(TOPIC, TestRecords.telemetry("j")),
                WireFormat.HEADER_LENGTH);
        byte[] bytes = Arrays.copyOf(header, header.length + 5);
        System.arraycopy(new byte[] {(byte) 0xFE, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F}, 0, bytes,
                header.length, 5);

        assertMalformed(bytes, MalformedRecordException.Reason.UNREADABLE_PAYLOAD);
    }

    @Test
    void shouldThrowMalformedWhenALengthPrefixExceedsTheDecoderLimit() {
        byte[] header = Arrays.copyOf(serde.serializer().serialize(TOPIC, TestRecords.telemetry("j")),
                WireFormat.HEADER_LENGTH);
        // zig-zag varint of 200,000,000: a string of 200 MB, below the JVM's array limit but far above AvroLimits
        byte[] prefix = {(byte) 0x80, (byte) 0x88, (byte) 0xDE, (byte) 0xBE, 0x01};
        byte[] bytes = Arrays.copyOf(header, header.length + prefix.length);
        System.arraycopy(prefix, 0, bytes, header.length, prefix.length);

        assertMalformed(bytes, MalformedRecordException.Reason.UNREADABLE_PAYLOAD);
        assertThat(Long.getLong(AvroLimits.STRING_PROPERTY)).isEqualTo((long) AvroLimits.MAX_LENGTH);
    }

    private void assertMalformed(byte[] bytes, MalformedRecordException.Reason reason) {
        assertThatThrownBy(() -> serde.deserializer().deserialize(TOPIC, bytes))
                .isInstanceOfSatisfying(MalformedRecordException.class, e -> {
                    assertThat(e.reason()).isEqualTo(reason);
                    assertThat(e.topic()).isEqualTo(TOPIC);
                })
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining(TOPIC)
                .hasMessageContaining(reason.description());
    }
}
