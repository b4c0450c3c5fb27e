package io.quanta.topics.serde;

import io.quanta.topics.registry.SchemaRegistryClient;
import io.quanta.topics.registry.SchemaRegistryException;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.AvroTypeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads Confluent-format Avro records: the writer schema is fetched by the id in the header and resolved to the
 * reader schema (a specific class's schema, a given generic schema, or the writer schema itself), so records written
 * with an older compatible schema are read with the current one.
 *
 * <p>Bad bytes raise {@link MalformedRecordException}, whatever the Avro decoder throws on them (a length prefix
 * beyond {@link AvroLimits} or the JVM's array limit included); a registry that cannot be reached raises
 * {@link RegistryUnavailableException} (the record may be fine: retry, never dead-letter it). Null bytes are
 * malformed unless the deserializer accepts
 * tombstones ({@link #acceptingTombstones()}), in which case they read as null. Thread-safe.
 */
public final class AvroDeserializer<T> implements Deserializer<T> {

    static {
        AvroLimits.install();
    }

    private final SchemaRegistryClient registry;
    private final Schema readerSchema;
    private final Class<?> specificType;
    private final boolean tombstones;
    private final Map<Integer, DatumReader<T>> readers = new ConcurrentHashMap<>();

    private AvroDeserializer(SchemaRegistryClient registry, Schema readerSchema, Class<?> specificType,
            boolean tombstones) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.readerSchema = readerSchema;
        this.specificType = specificType;
        this.tombstones = tombstones;
    }

    /** Reads into the generated class {@code type}, resolving any compatible writer schema to its schema. */
    public static <T extends SpecificRecord> AvroDeserializer<T> specific(SchemaRegistryClient registry,
            Class<T> type) {
        AvroTrust.trustQuantaSchemas();
        return new AvroDeserializer<>(registry, SpecificData.getForClass(type).getSchema(type), type, false);
    }

    /** Reads generic records with the writer's own schema. */
    public static AvroDeserializer<GenericRecord> generic(SchemaRegistryClient registry) {
        return new AvroDeserializer<>(registry, null, null, false);
    }

    /** Reads generic records resolved to {@code readerSchema}. */
    public static AvroDeserializer<GenericRecord> generic(SchemaRegistryClient registry, Schema readerSchema) {
        return new AvroDeserializer<>(registry, Objects.requireNonNull(readerSchema, "readerSchema"), null, false);
    }

    /** The same deserializer, but null bytes (tombstones of a compacted topic) read as null. */
    public AvroDeserializer<T> acceptingTombstones() {
        return new AvroDeserializer<>(registry, readerSchema, specificType, true);
    }

    @Override
    public T deserialize(String topic, byte[] bytes) {
        if (bytes == null && tombstones) {
            return null;
        }
        int id = WireFormat.schemaId(topic, bytes);
        DatumReader<T> reader = readers.computeIfAbsent(id, key -> readerFor(topic, key));
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, WireFormat.HEADER_LENGTH,
                bytes.length - WireFormat.HEADER_LENGTH, null);
        T value;
        try {
            value = reader.read(null, decoder);
        } catch (AvroTypeException e) {
            throw new MalformedRecordException(MalformedRecordException.Reason.INCOMPATIBLE_SCHEMA, topic,
                    "schema id " + id + ": " + e.getMessage(), e);
        } catch (IOException | RuntimeException e) {
            // any exception of the decoder is about these bytes (the writer schema is already resolved): Avro throws
            // UnsupportedOperationException for lengths past the JVM's array limit, SystemLimitException past ours
            throw new MalformedRecordException(MalformedRecordException.Reason.UNREADABLE_PAYLOAD, topic,
                    "schema id " + id + ": " + e, e);
        }
        try {
            if (!decoder.isEnd()) {
                throw new MalformedRecordException(MalformedRecordException.Reason.TRAILING_BYTES, topic,
                        "schema id " + id, null);
            }
        } catch (IOException e) {
            throw new MalformedRecordException(MalformedRecordException.Reason.UNREADABLE_PAYLOAD, topic,
                    e.toString(), e);
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    private DatumReader<T> readerFor(String topic, int id) {
        Schema writer;
        try {
            writer = registry.schemaById(id);
        } catch (SchemaRegistryException e) {
            if (e.isNotFound()) {
                throw new MalformedRecordException(MalformedRecordException.Reason.UNKNOWN_SCHEMA_ID, topic,
                        "id " + id, e);
            }
            throw new RegistryUnavailableException("Cannot fetch schema id " + id + " for topic '" + topic + "': "
                    + e.getMessage(), e);
        }
        if (specificType != null) {
            return (DatumReader<T>) new SpecificDatumReader<>(writer, readerSchema,
                    SpecificData.getForClass(specificType));
        }
        return (DatumReader<T>) new GenericDatumReader<GenericRecord>(writer,
                readerSchema == null ? writer : readerSchema, GenericData.get());
    }
}
