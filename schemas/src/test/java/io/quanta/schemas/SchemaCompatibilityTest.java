package io.quanta.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/**
 * Every schema change must stay BACKWARD compatible with the previous released version, kept under
 * {@code src/test/resources/released/<version>/}: current readers must read data written by released writers.
 * When releasing, copy {@code src/main/avro} to a new {@code released/<version>} folder.
 */
class SchemaCompatibilityTest {

    private static final Path CURRENT = Path.of("src/main/avro");
    private static final Path RELEASED = Path.of("src/test/resources/released");

    @Test
    void shouldReadDataOfPreviousReleaseWhenUsingCurrentSchemas() throws IOException {
        Path previous = latestRelease();
        SchemaSet released = SchemaSet.load(previous);

        List<String> problems = BackwardCompatibility.problems(released, SchemaSet.load(CURRENT));

        assertThat(released.byFullName()).as("released types in %s", previous).hasSizeGreaterThanOrEqualTo(14);
        assertThat(problems).as("BACKWARD problems against %s", previous).isEmpty();
    }

    @Test
    void shouldReportProblemWhenRequiredFieldIsAddedWithoutDefault() throws IOException {
        SchemaSet released = SchemaSet.load(latestRelease());
        String telemetry = Files.readString(CURRENT.resolve("JobTelemetry.avsc"));
        String broken = telemetry.replace("{\"name\": \"jobId\", \"type\": \"string\"},",
                "{\"name\": \"jobId\", \"type\": \"string\"}, {\"name\": \"mandatory\", \"type\": \"string\"},");
        assertThat(broken).isNotEqualTo(telemetry);
        SchemaSet changed = SchemaSet.load(CURRENT).with(new Schema.Parser().parse(broken));

        List<String> problems = BackwardCompatibility.problems(released, changed);

        assertThat(problems).singleElement().asString()
                .contains("io.quanta.schemas.JobTelemetry")
                .contains("READER_FIELD_MISSING_DEFAULT_VALUE")
                .contains("mandatory");
    }

    @Test
    void shouldReportProblemWhenReleasedTypeIsRemoved() throws IOException {
        SchemaSet released = SchemaSet.load(latestRelease());

        List<String> problems = BackwardCompatibility.problems(released,
                SchemaSet.load(CURRENT).without("io.quanta.schemas.DeadLetter"));

        assertThat(problems).containsExactly("io.quanta.schemas.DeadLetter: removed (released types must stay)");
    }

    private static Path latestRelease() throws IOException {
        try (Stream<Path> dirs = Files.list(RELEASED)) {
            return dirs.filter(Files::isDirectory).max(Comparator.comparing(SchemaCompatibilityTest::versionKey))
                    .orElseThrow();
        }
    }

    private static String versionKey(Path dir) {
        StringBuilder key = new StringBuilder();
        for (String part : dir.getFileName().toString().split("\\.")) {
            key.append(String.format("%08d", Integer.parseInt(part.replaceAll("\\D.*", "").isEmpty() ? "0"
                    : part.replaceAll("\\D.*", ""))));
        }
        return key.toString();
    }
}
