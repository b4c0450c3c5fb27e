package io.quanta.topics.serde;

import io.quanta.topics.registry.SchemaRegistryClient;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericContainer;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A Kafka {@link Serde} for Avro records in the Confluent wire format: {@link AvroSerializer} plus
 * {@link AvroDeserializer} sharing one registry client.
 */
public final class AvroSerde<T extends GenericContainer> implements Serde<T> {

    private final AvroSerializer<T> serializer;
    private final AvroDeserializer<T> deserializer;

    private AvroSerde(AvroSerializer<T> serializer, AvroDeserializer<T> deserializer) {
        this.serializer = serializer;
        this.deserializer = deserializer;
    }

    /** Serde of a generated class. */
    public static <T extends SpecificRecord> AvroSerde<T> specific(Class<T> type, SchemaRegistryClient registry,
            boolean autoRegister) {
        return new AvroSerde<>(new AvroSerializer<>(registry, autoRegister),
                AvroDeserializer.specific(registry, type));
    }

    /** Serde of generic records, read with the writer's schema. */
    public static AvroSerde<GenericRecord> generic(SchemaRegistryClient registry, boolean autoRegister) {
        return new AvroSerde<>(new AvroSerializer<>(registry, autoRegister), AvroDeserializer.generic(registry));
    }

    /** Serde of generic records, read with (resolved to) the given schema. */
    public static AvroSerde<GenericRecord> generic(SchemaRegistryClient registry, boolean autoRegister,
            Schema readerSchema) {
        return new AvroSerde<>(new AvroSerializer<>(registry, autoRegister),
                AvroDeserializer.generic(registry, readerSchema));
    }

    /** The same serde, reading null bytes as null (for compacted topics). */
    public AvroSerde<T> acceptingTombstones() {
        return new AvroSerde<>(serializer, deserializer.acceptingTombstones());
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        serializer.configure(configs, isKey);
        deserializer.configure(configs, isKey);
    }

    @Override
    public Serializer<T> serializer() {
        return serializer;
    }

    @Override
    public Deserializer<T> deserializer() {
        return deserializer;
    }
}
