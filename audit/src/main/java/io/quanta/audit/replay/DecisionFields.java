package io.quanta.audit.replay;

import io.quanta.schemas.SchedulingDecision;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * Compares two {@link SchedulingDecision}s as the audit log stores them: equal when their canonical Avro binary
 * encodings are byte-identical (map entries in key order, which is how the scheduler writes its details), and
 * otherwise the list of fields that differ.
 */
public final class DecisionFields {

    private static final SpecificDatumWriter<SchedulingDecision> WRITER =
            new SpecificDatumWriter<>(SchedulingDecision.getClassSchema());

    private DecisionFields() {
    }

    /** One field that differs: its name and both values as text. */
    public record Difference(String field, String recorded, String replayed) {
        @Override
        public String toString() {
            return field + ": recorded " + recorded + ", replayed " + replayed;
        }
    }

    /** True when both decisions encode to the same canonical bytes. */
    public static boolean identical(SchedulingDecision recorded, SchedulingDecision replayed) {
        return Arrays.equals(canonicalBytes(recorded), canonicalBytes(replayed));
    }

    /** The fields that differ, in schema order (empty when identical). */
    public static List<Difference> differences(SchedulingDecision recorded, SchedulingDecision replayed) {
        List<Difference> out = new ArrayList<>();
        for (Schema.Field f : SchedulingDecision.getClassSchema().getFields()) {
            Object a = canonical(recorded.get(f.pos()));
            Object b = canonical(replayed.get(f.pos()));
            if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
                mapDifferences(f.name(), x, y, out);
            } else if (!Objects.equals(a, b)) {
                out.add(new Difference(f.name(), render(a), render(b)));
            }
        }
        return out;
    }

    /** The Avro binary encoding of the decision with its details sorted by key. */
    public static byte[] canonicalBytes(SchedulingDecision decision) {
        SchedulingDecision sorted = SchedulingDecision.newBuilder(decision)
                .setDetails(new TreeMap<>(decision.getDetails())).build();
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        try {
            WRITER.write(sorted, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static void mapDifferences(String field, Map<?, ?> recorded, Map<?, ?> replayed, List<Difference> out) {
        TreeMap<String, Object> keys = new TreeMap<>();
        recorded.keySet().forEach(k -> keys.put(String.valueOf(k), k));
        replayed.keySet().forEach(k -> keys.put(String.valueOf(k), k));
        for (Object key : keys.values()) {
            Object a = recorded.get(key);
            Object b = replayed.get(key);
            if (!Objects.equals(a, b)) {
                out.add(new Difference(field + "." + key, a == null ? "(absent)" : render(a),
                        b == null ? "(absent)" : render(b)));
            }
        }
    }

    private static Object canonical(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, String> sorted = new TreeMap<>();
            map.forEach((k, v) -> sorted.put(String.valueOf(k), String.valueOf(v)));
            return sorted;
        }
        if (value instanceof CharSequence text) {
            return text.toString();
        }
        return value;
    }

    private static String render(Object value) {
        if (value instanceof String text) {
            return '"' + text + '"';
        }
        return String.valueOf(value);
    }
}
