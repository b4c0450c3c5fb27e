package io.quanta.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.junit.jupiter.api.Test;

/**
 * The cell state's schemas ({@code src/main/avro/state}) against every version the scheduler has written
 * ({@code src/main/resources/io/quanta/schemas/state/history/<n>/}, which the state decoders load so that a rolling
 * upgrade reads the changelog an older build wrote). No release holds them yet, so the released-version test of
 * {@link SchemaCompatibilityTest} cannot guard them: this one does. Changing a state schema means adding its new
 * version as {@code history/<n+1>} and keeping every older one.
 */
class StateSchemaHistoryTest {

    private static final Path CURRENT = Path.of("src/main/avro/state");
    private static final Path HISTORY = Path.of("src/main/resources/io/quanta/schemas/state/history");

    @Test
    void shouldReadStateOfEveryVersionEverWrittenWithTheCurrentSchemas() throws IOException {
        SchemaSet current = currentStateSchemas();
        List<Path> versions = versions();

        assertThat(versions).as("state schema versions in %s", HISTORY).isNotEmpty();
        for (Path version : versions) {
            SchemaSet written = SchemaSet.load(version);
            assertThat(written.byFullName()).as("state types of %s", version).hasSize(4);
            assertThat(BackwardCompatibility.problems(written, current)).as("BACKWARD problems against %s", version)
                    .isEmpty();
        }
    }

    @Test
    void shouldKeepTheCurrentSchemasAsTheNewestVersionOfTheHistory() throws IOException {
        Path newest = versions().get(versions().size() - 1);

        assertThat(fingerprints(SchemaSet.load(newest))).as("a changed state schema needs a new history version "
                + "after %s (copy its parsed form there; keep the old ones)", newest)
                .isEqualTo(fingerprints(currentStateSchemas()));
    }

    @Test
    void shouldReportAStateFieldAddedWithoutADefault() throws IOException {
        Schema job = currentStateSchemas().byFullName().get("io.quanta.schemas.state.StoredJob");
        String text = job.toString();
        String broken = text.replaceFirst("\\{\"name\":\"jobId\"", "{\"name\":\"mandatory\",\"type\":\"string\"},"
                + "{\"name\":\"jobId\"");
        assertThat(broken).isNotEqualTo(text);
        SchemaSet changed = currentStateSchemas().with(new Schema.Parser().parse(broken));

        assertThat(BackwardCompatibility.problems(SchemaSet.load(versions().get(0)), changed)).singleElement()
                .asString().contains("StoredJob", "READER_FIELD_MISSING_DEFAULT_VALUE", "mandatory");
    }

    private static SchemaSet currentStateSchemas() {
        // the state schemas use the topic schemas' shared types, so parse them with the whole set
        SchemaSet all = SchemaSet.load(Path.of("src/main/avro"));
        return new SchemaSet(all.byFullName().entrySet().stream()
                .filter(e -> e.getKey().startsWith("io.quanta.schemas.state.Stored") && isTopLevel(e.getKey()))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, TreeMap::new)));
    }

    private static boolean isTopLevel(String name) {
        return Files.exists(CURRENT.resolve(name.substring(name.lastIndexOf('.') + 1) + ".avsc"));
    }

    private static Map<String, Long> fingerprints(SchemaSet set) {
        return set.byFullName().entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey,
                e -> SchemaNormalization.parsingFingerprint64(e.getValue()), (a, b) -> a, TreeMap::new));
    }

    private static List<Path> versions() throws IOException {
        try (Stream<Path> dirs = Files.list(HISTORY)) {
            return dirs.filter(Files::isDirectory)
                    .sorted(Comparator.comparingInt(p -> Integer.parseInt(p.getFileName().toString()))).toList();
        }
    }
}
