package io.quanta.topics.serde;

import io.quanta.topics.config.ConnectionConfigSection;
import io.quanta.topics.config.QuantaConfig;
import io.quanta.topics.registry.HttpSchemaRegistryClient;
import io.quanta.topics.registry.RegistryClientSettings;
import io.quanta.topics.registry.SchemaRegistryClient;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;

/** {@link SerdeFactory} making Confluent-format {@link AvroSerde}s that share one registry client. */
public final class AvroSerdeFactory implements SerdeFactory {

    private final SchemaRegistryClient registry;
    private final boolean autoRegister;

    public AvroSerdeFactory(SchemaRegistryClient registry, boolean autoRegister) {
        this.registry = registry;
        this.autoRegister = autoRegister;
    }

    /** A factory talking to the registry of this configuration over HTTP. */
    public static AvroSerdeFactory from(QuantaConfig config) {
        return new AvroSerdeFactory(new HttpSchemaRegistryClient(RegistryClientSettings.from(config)),
                config.getBoolean(ConnectionConfigSection.REGISTRY_AUTO_REGISTER));
    }

    /** The registry client the serdes use. */
    public SchemaRegistryClient registry() {
        return registry;
    }

    @Override
    public <T extends SpecificRecord> Serde<T> valueSerde(Class<T> type, boolean acceptTombstones) {
        AvroSerde<T> serde = AvroSerde.specific(type, registry, autoRegister);
        return acceptTombstones ? serde.acceptingTombstones() : serde;
    }
}
