package io.quanta.streams.store;

import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Serde over a pair of encode and decode functions: the state records' binary encodings and the scheduling core's
 * own encodings of its learned memory (service distribution, interference memory).
 */
public final class BytesCodecSerde<T> implements Serde<T>, Serializer<T>, Deserializer<T> {

    private final Function<T, byte[]> encode;
    private final Function<byte[], T> decode;

    public BytesCodecSerde(Function<T, byte[]> encode, Function<byte[], T> decode) {
        this.encode = encode;
        this.decode = decode;
    }

    @Override
    public byte[] serialize(String topic, T data) {
        return data == null ? null : encode.apply(data);
    }

    @Override
    public T deserialize(String topic, byte[] data) {
        return data == null ? null : decode.apply(data);
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        // nothing to configure
    }

    @Override
    public void close() {
        // nothing to release
    }

    @Override
    public Serializer<T> serializer() {
        return this;
    }

    @Override
    public Deserializer<T> deserializer() {
        return this;
    }
}
