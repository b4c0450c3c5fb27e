package io.quanta.bench;

import io.quanta.chaos.infra.ChildJvm;
import io.quanta.embedded.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The broker and the schema registry in a process of their own: {@code quanta local --only broker,registry} on a
 * fresh data directory, as an operator would start it; its printed addresses are what every other process uses.
 */
public final class Infrastructure implements AutoCloseable {

    private static final Duration START = Duration.ofMinutes(6);
    private static final List<String> JVM = List.of("-Xms256m", "-Xmx1g");

    private final ChildJvm process;
    private final String bootstrapServers;
    private final String registryUrl;

    private Infrastructure(ChildJvm process, String bootstrapServers, String registryUrl) {
        this.process = process;
        this.bootstrapServers = bootstrapServers;
        this.registryUrl = registryUrl;
    }

    /** Starts {@code quanta local --only broker,registry} under {@code dir} and waits for its {@code ready} line. */
    public static Infrastructure start(Path dir) {
        Path log = dir.resolve("local.log");
        ChildJvm local = ChildJvm.start("quanta local --only broker,registry", JVM, List.of("local", "--only",
                "broker,registry", "--data-dir", dir.resolve("local").toString(), "--fresh", "--registry-timeout",
                "300"), log);
        try {
            Await.until("quanta local --only broker,registry is ready (" + log + ")", START,
                    () -> read(log).contains("ready in") || !local.isAlive());
            String text = read(log);
            if (!local.isAlive()) {
                throw new IllegalStateException("quanta local exited: " + local.tail(30));
            }
            return new Infrastructure(local, field(text, "kafka bootstrap servers").orElseThrow(),
                    field(text, "schema registry").orElseThrow());
        } catch (RuntimeException e) {
            local.stop(Duration.ofSeconds(30));
            throw e;
        }
    }

    /** The value printed after {@code label} on its line (up to the first space). */
    static Optional<String> field(String text, String label) {
        return text.lines().map(String::trim).filter(l -> l.startsWith(label))
                .map(l -> l.substring(label.length()).trim().split("\\s+")[0]).findFirst();
    }

    private static String read(Path log) {
        try {
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public String registryUrl() {
        return registryUrl;
    }

    /** The process id of the broker and registry's process (for its CPU time). */
    public long pid() {
        return process.pid();
    }

    @Override
    public void close() {
        process.stop(Duration.ofSeconds(60));
    }
}
