package io.quanta.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.embedded.Await;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A normal start and stop of {@code bin/quanta local}, the first one and one that resumes, exactly as a user runs
 * it (the launcher's JVM options, the CLI's logging), prints no warning: no JVM {@code WARNING:} line, no logger's
 * {@code WARN} or {@code ERROR}.
 */
class QuietStartIT {

    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    /** What the JVM and the CLI's logger print for a warning or an error. */
    private static final Pattern WARNING = Pattern.compile("^WARNING: | WARN | ERROR |\\[(warning|error)\\]");

    @Test
    void shouldPrintNoWarningWhenStartingAndStoppingFreshOrResuming() throws Exception {
        // under target/, not java.io.tmpdir: Kafka Streams rightly warns about state kept in a temporary directory
        Path dataDir = REPO.resolve("tests/target/quiet-start-" + UUID.randomUUID().toString().substring(0, 8));
        String first = runLocal(dataDir, "--fresh");
        assertThat(first).contains("ready in", "quanta local: stopped; state kept in");
        assertThat(warnings(first)).as("warning lines of a first start and stop").isEmpty();

        String resumed = runLocal(dataDir, "--clean");
        assertThat(resumed).contains("(resuming)", "ready in", "quanta local: stopped; deleted");
        assertThat(warnings(resumed)).as("warning lines of a resumed start and stop").isEmpty();
    }

    /**
     * Runs {@code bin/quanta local} on {@code dataDir} until its scheduler has assigned its tasks and every node
     * registered (what a user waits for), then stops it as Ctrl-C would (SIGTERM) and returns everything it printed.
     */
    private static String runLocal(Path dataDir, String option) throws Exception {
        Path log = Files.createDirectories(REPO.resolve("tests/target"))
                .resolve(dataDir.getFileName() + option + ".log");
        ProcessBuilder local = new ProcessBuilder(REPO.resolve("bin/quanta").toString(), "local", option,
                "--data-dir", dataDir.toString()).redirectErrorStream(true).redirectOutput(log.toFile());
        local.environment().put("QUANTA_SKIP_BUILD", "1"); // the build under test, as it is
        // a checkout may itself lie under the OS temporary directory (CI clones into /tmp): give the JVM a temporary
        // directory of its own, so that the data directory is, as ~/.quanta/local is for a user, not inside it
        Path tmp = Files.createDirectories(REPO.resolve("tests/target/quiet-start-tmp"));
        local.environment().put("QUANTA_JAVA_OPTS", "-Djava.io.tmpdir=" + tmp);
        Process process = local.start();
        try {
            Await.until("quanta local ready", Duration.ofMinutes(4), () -> !process.isAlive()
                    || read(log).contains("ready in"));
            String url = statusUrl(dataDir.resolve("client.properties"));
            Await.until("4 nodes registered with the running scheduler", Duration.ofMinutes(2),
                    () -> !process.isAlive() || get(url + "/cells/cell-0/summary").contains("\"nodesAlive\" : 4"));
        } finally {
            process.destroy();
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        }
        return read(log);
    }

    private static String read(Path log) {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String statusUrl(Path clientProperties) throws IOException {
        Properties client = new Properties();
        try (var in = Files.newInputStream(clientProperties)) {
            client.load(in);
        }
        return client.getProperty("scheduler.status.url");
    }

    private static String get(String url) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static List<String> warnings(String output) {
        return output.lines().filter(line -> WARNING.matcher(line).find()).toList();
    }
}
