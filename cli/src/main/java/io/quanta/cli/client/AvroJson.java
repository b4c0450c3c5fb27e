package io.quanta.cli.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Base64;
import java.util.Collection;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;

/**
 * Plain JSON of Quanta records for {@code --json} output: field names as in the schema, timestamps as ISO-8601
 * strings, enums as names, nulls kept, bytes as base64. Stable field order (the schema's).
 */
public final class AvroJson {

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private AvroJson() {
    }

    /** The record as a JSON tree. */
    public static ObjectNode tree(SpecificRecord record) {
        ObjectNode node = NODES.objectNode();
        for (Schema.Field field : record.getSchema().getFields()) {
            node.set(field.name(), value(record.get(field.pos())));
        }
        return node;
    }

    /** Pretty-printed JSON of a tree. */
    public static String print(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A JSON array of records. */
    public static ArrayNode array(Collection<? extends SpecificRecord> records) {
        ArrayNode array = NODES.arrayNode();
        records.forEach(r -> array.add(tree(r)));
        return array;
    }

    private static JsonNode value(Object v) {
        if (v == null) {
            return NODES.nullNode();
        }
        if (v instanceof SpecificRecord r) {
            return tree(r);
        }
        if (v instanceof Instant t) {
            return NODES.textNode(t.toString());
        }
        if (v instanceof CharSequence || v instanceof Enum<?>) {
            return NODES.textNode(v.toString());
        }
        if (v instanceof Integer i) {
            return NODES.numberNode(i);
        }
        if (v instanceof Long l) {
            return NODES.numberNode(l);
        }
        if (v instanceof Double d) {
            return NODES.numberNode(d);
        }
        if (v instanceof Float f) {
            return NODES.numberNode(f);
        }
        if (v instanceof Boolean b) {
            return NODES.booleanNode(b);
        }
        if (v instanceof ByteBuffer bytes) {
            ByteBuffer copy = bytes.duplicate();
            byte[] raw = new byte[copy.remaining()];
            copy.get(raw);
            return NODES.textNode(Base64.getEncoder().encodeToString(raw));
        }
        if (v instanceof Collection<?> items) {
            ArrayNode array = NODES.arrayNode();
            items.forEach(item -> array.add(value(item)));
            return array;
        }
        if (v instanceof Map<?, ?> map) {
            ObjectNode object = NODES.objectNode();
            new java.util.TreeMap<>(map.entrySet().stream().collect(java.util.stream.Collectors.toMap(
                    e -> e.getKey().toString(), Map.Entry::getValue))).forEach((k, item) -> object.set(k, value(item)));
            return object;
        }
        return NODES.textNode(v.toString());
    }
}
