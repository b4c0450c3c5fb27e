package io.quanta.streams;

import java.util.Objects;
import org.apache.kafka.common.serialization.Serde;

/**
 * A key-value store of the topology: its name and the serde of its values (keys are strings). {@link StoreOptions}
 * makes a Kafka Streams store of it; {@link io.quanta.streams.host.HostStore} a plain in-memory one.
 *
 * @param name   the store name (also part of its changelog topic's name)
 * @param values the value serde
 * @param <V>    the value type
 */
public record StoreSpec<V>(String name, Serde<V> values) {

    public StoreSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(values, "values");
    }
}
