package io.quanta.streams.store;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Serde of the scheduler's own state values (job, node, assignment and meta records) as JSON of their fields, for the
 * state stores and their changelogs. Doubles round-trip exactly (NaN and infinities included), unknown fields are
 * ignored so that older code can read newer state. Not used on any public topic.
 */
public final class JsonSerde {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .visibility(PropertyAccessor.ALL, JsonAutoDetect.Visibility.NONE)
            .visibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
            .visibility(PropertyAccessor.CREATOR, JsonAutoDetect.Visibility.ANY)
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .disable(JsonWriteFeature.WRITE_NAN_AS_STRINGS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private JsonSerde() {
    }

    /** The serde of {@code type}'s fields as JSON. */
    public static <T> BytesCodecSerde<T> of(Class<T> type) {
        return new BytesCodecSerde<>(value -> write(type, value), bytes -> read(type, bytes));
    }

    private static <T> byte[] write(Class<T> type, T value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new SerializationException("cannot write " + type.getSimpleName() + " as JSON: " + e.getMessage(), e);
        }
    }

    private static <T> T read(Class<T> type, byte[] bytes) {
        try {
            return MAPPER.readValue(bytes, type);
        } catch (IOException e) {
            throw new SerializationException("cannot read " + type.getSimpleName() + " from JSON: " + e.getMessage(), e);
        }
    }
}
