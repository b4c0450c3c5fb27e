package io.quanta.topics.serde;

import io.quanta.topics.registry.SchemaRegistryClient;
import io.quanta.topics.registry.SchemaRegistryException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericContainer;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes specific or generic Avro records in the Confluent wire format. The writer schema is the record's own; its id
 * comes from the registry under the TopicNameStrategy subject, registered on first use when {@code autoRegister} is
 * on, otherwise looked up (and required to exist). Null stays null (a tombstone). Thread-safe.
 */
public final class AvroSerializer<T extends GenericContainer> implements Serializer<T> {

    private final SchemaRegistryClient registry;
    private final boolean autoRegister;
    private final Map<Schema, DatumWriter<Object>> writers = new ConcurrentHashMap<>();
    private volatile boolean isKey;

    public AvroSerializer(SchemaRegistryClient registry, boolean autoRegister) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.autoRegister = autoRegister;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        this.isKey = isKey;
    }

    @Override
    public byte[] serialize(String topic, T data) {
        if (data == null) {
            return null;
        }
        Schema schema = data.getSchema();
        String subject = SubjectNames.of(topic, isKey);
        int id;
        try {
            id = autoRegister ? registry.register(subject, schema) : registry.idOf(subject, schema);
        } catch (SchemaRegistryException e) {
            String message = "Cannot get a schema id for subject '" + subject + "' (" + schema.getFullName() + "): "
                    + e.getMessage();
            throw e.isClientError() ? new SerializationException(message, e)
                    : new RegistryUnavailableException(message, e);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(128);
        out.writeBytes(WireFormat.header(id));
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        try {
            writers.computeIfAbsent(schema, AvroSerializer::writerFor).write(data, encoder);
            encoder.flush();
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("Cannot write a " + schema.getFullName() + " to topic '" + topic
                    + "': " + e.getMessage(), e);
        }
        return out.toByteArray();
    }

    @SuppressWarnings("unchecked")
    private static DatumWriter<Object> writerFor(Schema schema) {
        SpecificData specific = SpecificData.getForSchema(schema);
        if (specific.getClass(schema) != null) {
            return (DatumWriter<Object>) (DatumWriter<?>) new SpecificDatumWriter<SpecificRecord>(schema, specific);
        }
        return new GenericDatumWriter<>(schema, GenericData.get());
    }
}
