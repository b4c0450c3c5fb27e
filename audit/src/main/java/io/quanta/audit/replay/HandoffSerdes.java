package io.quanta.audit.replay;

import io.quanta.schemas.CellInput;
import io.quanta.topics.registry.InMemorySchemaRegistryClient;
import io.quanta.topics.serde.AvroSerdeFactory;
import io.quanta.topics.serde.SerdeFactory;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The serdes of a replay: the inbox serde hands the already decoded {@link CellInput} to the processor's deserializer
 * (the log was decoded once, with the production serde, when it was read), saving an Avro encode and decode per
 * record; every other topic gets the production Avro serde over an in-memory registry. Single-threaded: one value is
 * in flight between {@link #handOff} and the processor's {@code deserialize}.
 */
final class HandoffSerdes implements SerdeFactory {

    private static final byte[] TOKEN = {0};

    private final AvroSerdeFactory avro = new AvroSerdeFactory(new InMemorySchemaRegistryClient(), true);
    private CellInput pending;

    /** Stores the next input and returns the bytes to give the processor in its place. */
    byte[] handOff(CellInput input) {
        if (pending != null) {
            throw new IllegalStateException("the previous input was not taken by the processor");
        }
        pending = input;
        return TOKEN;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends SpecificRecord> Serde<T> valueSerde(Class<T> type, boolean acceptTombstones) {
        if (type != CellInput.class) {
            return avro.valueSerde(type, acceptTombstones);
        }
        Serializer<CellInput> serializer = (topic, value) -> handOff(value);
        Deserializer<CellInput> deserializer = (topic, bytes) -> take();
        return (Serde<T>) Serdes.serdeFrom(serializer, deserializer);
    }

    private CellInput take() {
        CellInput input = pending;
        if (input == null) {
            throw new IllegalStateException("no input handed off for the processor to read");
        }
        pending = null;
        return input;
    }
}
