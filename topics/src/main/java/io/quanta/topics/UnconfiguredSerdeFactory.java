package io.quanta.topics;

import io.quanta.topics.serde.SerdeFactory;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/** Serdes that refuse to work: for catalogues used only to administer topics, where no registry is configured. */
final class UnconfiguredSerdeFactory implements SerdeFactory {

    @Override
    public <T extends SpecificRecord> Serde<T> valueSerde(Class<T> type, boolean acceptTombstones) {
        return Serdes.serdeFrom((topic, value) -> {
            throw unconfigured(type);
        }, (topic, bytes) -> {
            throw unconfigured(type);
        });
    }

    private static ConfigException unconfigured(Class<?> type) {
        return new ConfigException("No serde for " + type.getSimpleName()
                + ": this topic catalogue was built for administration only; set schema.registry.url");
    }
}
