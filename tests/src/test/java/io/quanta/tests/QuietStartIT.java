package io.quanta.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A normal first start and stop of {@code bin/quanta local}, exactly as a user runs it (the launcher's JVM options,
 * the CLI's logging), prints no warning: no JVM {@code WARNING:} line, no logger's {@code WARN} or {@code ERROR}.
 */
class QuietStartIT {

    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    /** What the JVM and the CLI's logger print for a warning or an error. */
    private static final Pattern WARNING = Pattern.compile("^WARNING: | WARN | ERROR |\\[(warning|error)\\]");

    @Test
    void shouldPrintNoWarningWhenStartingAndStopping() throws Exception {
        // under target/, not java.io.tmpdir: Kafka Streams rightly warns about state kept in a temporary directory
        Path dataDir = REPO.resolve("tests/target/quiet-start-" + UUID.randomUUID().toString().substring(0, 8));
        Path log = Files.createDirectories(REPO.resolve("tests/target")).resolve(dataDir.getFileName() + ".log");
        ProcessBuilder local = new ProcessBuilder(REPO.resolve("bin/quanta").toString(), "local", "--fresh",
                "--clean", "--stop-when-ready", "--data-dir", dataDir.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        local.environment().put("QUANTA_SKIP_BUILD", "1"); // the build under test, as it is
        Process process = local.start();

        boolean ended = process.waitFor(5, TimeUnit.MINUTES);
        if (!ended) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(ended).as("quanta local --stop-when-ready ended within 5 minutes:%n%s", output).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output).contains("ready in", "quanta local: stopped");
        List<String> warnings = output.lines().filter(line -> WARNING.matcher(line).find()).toList();
        assertThat(warnings).as("warning lines of a normal start and stop").isEmpty();
    }
}
