package io.quanta.schemas;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;

/**
 * The named types defined by a folder of {@code .avsc} files (searched recursively), parsed in an order where every
 * referenced type is defined first.
 */
record SchemaSet(Map<String, Schema> byFullName) {

    static SchemaSet load(Path dir) {
        List<String> remaining = new ArrayList<>(files(dir).stream().map(SchemaSet::read).toList());
        List<String> ordered = new ArrayList<>();
        while (!remaining.isEmpty()) {
            String next = remaining.stream().filter(text -> parseError(ordered, text).isEmpty()).findFirst()
                    .orElseThrow(() -> new IllegalStateException("Unresolvable schemas in " + dir + ": "
                            + parseError(ordered, remaining.getFirst()).orElse("")));
            ordered.add(next);
            remaining.remove(next);
        }
        return fromTexts(ordered);
    }

    static SchemaSet fromTexts(List<String> texts) {
        Schema.Parser parser = new Schema.Parser();
        Map<String, Schema> top = new LinkedHashMap<>();
        for (String text : texts) {
            Schema schema = parser.parse(text);
            top.put(schema.getFullName(), schema);
        }
        return new SchemaSet(Map.copyOf(top));
    }

    /** This set with one top-level type replaced (or added). */
    SchemaSet with(Schema schema) {
        Map<String, Schema> copy = new LinkedHashMap<>(byFullName);
        copy.put(schema.getFullName(), schema);
        return new SchemaSet(Map.copyOf(copy));
    }

    /** This set without one top-level type. */
    SchemaSet without(String fullName) {
        Map<String, Schema> copy = new LinkedHashMap<>(byFullName);
        copy.remove(fullName);
        return new SchemaSet(Map.copyOf(copy));
    }

    /** Why {@code text} does not parse after {@code before}, or empty when it does. */
    private static Optional<String> parseError(List<String> before, String text) {
        try {
            List<String> all = new ArrayList<>(before);
            all.add(text);
            fromTexts(all);
            return Optional.empty();
        } catch (AvroRuntimeException e) {
            return Optional.of(e.getMessage());
        }
    }

    private static List<Path> files(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(p -> p.toString().endsWith(".avsc")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
