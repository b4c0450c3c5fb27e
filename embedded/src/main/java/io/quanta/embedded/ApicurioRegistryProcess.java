package io.quanta.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Apicurio Registry (in-memory storage) as a child process under a JDK 21+, bound to loopback on free ports (HTTP and
 * the Quarkus management interface), its global compatibility level set to BACKWARD. {@link #url()} is its
 * Confluent-compatible API. {@link #close()}, and a JVM shutdown hook, kill the whole process tree.
 *
 * <p>JVM shutdown hooks run concurrently and in no order. An owner that stops its clients before the registry in a
 * hook of its own (as {@code quanta local} does on Ctrl-C) calls {@link #ownerClosesOnExit(Duration)}: this hook then
 * waits that long for {@link #close()} before it kills the registry itself, so that a stream thread still committing
 * does not find the registry gone.
 */
public final class ApicurioRegistryProcess implements AutoCloseable {

    private static final String CCOMPAT = "/apis/ccompat/v7";

    private final Duration startTimeout;
    private final Path logFile;
    private final boolean ownsLogFile;
    private final int fixedHttpPort;
    private final java.util.Map<String, String> systemProperties;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Process process;
    private CdsArchive cds;
    private Thread shutdownHook;
    private Duration exitGrace = Duration.ZERO;
    private final java.util.concurrent.CountDownLatch closed = new java.util.concurrent.CountDownLatch(1);
    private String url;
    private Duration startupTime;

    private ApicurioRegistryProcess(Duration startTimeout, Path logFile, boolean ownsLogFile, int httpPort,
                                    java.util.Map<String, String> systemProperties) {
        this.startTimeout = startTimeout;
        this.logFile = logFile;
        this.ownsLogFile = ownsLogFile;
        this.fixedHttpPort = httpPort;
        this.systemProperties = java.util.Map.copyOf(systemProperties);
    }

    /** A registry that waits up to {@code startTimeout} for readiness and writes its output to a temporary file. */
    public static ApicurioRegistryProcess create(Duration startTimeout) {
        try {
            return new ApicurioRegistryProcess(startTimeout, Files.createTempFile("quanta-apicurio-", ".log"), true, 0,
                    java.util.Map.of());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A registry that keeps its schemas in an H2 database under {@code dataDir} (so a restart finds the same schema
     * ids), listens on {@code httpPort} (0 = a free port), and writes its output to {@code logFile}.
     */
    public static ApicurioRegistryProcess persistent(Duration startTimeout, Path dataDir, int httpPort, Path logFile) {
        try {
            Files.createDirectories(dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dataDir, e);
        }
        return new ApicurioRegistryProcess(startTimeout, logFile, false, httpPort, java.util.Map.of(
                "apicurio.datasource.url", "jdbc:h2:file:" + dataDir.toAbsolutePath().resolve("registry")));
    }

    /**
     * Lets the JVM shutdown hook wait up to {@code grace} for the owner's {@link #close()} before it kills the
     * registry itself (the owner stops its own clients first in a hook of its own). Call before {@link #start()}.
     */
    public synchronized ApicurioRegistryProcess ownerClosesOnExit(Duration grace) {
        exitGrace = grace;
        return this;
    }

    /** Starts the process and returns once the API answers and compatibility is BACKWARD. */
    public synchronized ApicurioRegistryProcess start() {
        if (process != null) {
            return this;
        }
        long began = System.nanoTime();
        Path home = ApicurioDistribution.locate();
        int httpPort = fixedHttpPort > 0 ? fixedHttpPort : FreePorts.next();
        int managementPort = FreePorts.next();
        List<String> command = new ArrayList<>(List.of(java().toString(), "-Xms64m", "-Xmx384m",
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
                "-Dquarkus.http.host=127.0.0.1", "-Dquarkus.http.port=" + httpPort,
                "-Dquarkus.management.host=127.0.0.1", "-Dquarkus.management.port=" + managementPort,
                "-Dquarkus.log.console.color=false", "-Dapicurio.storage.kind=sql", "-Dapicurio.storage.sql.kind=h2"));
        new java.util.TreeMap<>(systemProperties).forEach((k, v) -> command.add("-D" + k + "=" + v));
        cds = CdsArchive.beside(home);
        command.addAll(cds.jvmOptions());
        command.addAll(List.of("-jar", ApicurioDistribution.RUN_JAR));
        try {
            process = new ProcessBuilder(command).directory(home.toFile()).redirectErrorStream(true)
                    .redirectOutput(logFile.toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start Apicurio Registry from " + home, e);
        }
        shutdownHook = new Thread(this::killOnExit, "quanta-apicurio-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        url = "http://127.0.0.1:" + httpPort + CCOMPAT;
        try {
            Await.until("Apicurio Registry answers at " + url, startTimeout, this::answers);
            RegistryAdmin.setBackwardCompatibility(http, url);
        } catch (RuntimeException | Error e) {
            String tail = logTail(40);
            close();
            throw new IllegalStateException("Apicurio Registry did not start (" + e.getMessage() + "). Last lines of "
                    + logFile + ":\n" + tail, e);
        }
        startupTime = Duration.ofNanos(System.nanoTime() - began);
        return this;
    }

    /** Base URL of the Confluent-compatible API, e.g. {@code http://127.0.0.1:PORT/apis/ccompat/v7}. */
    public String url() {
        if (url == null) {
            throw new IllegalStateException("registry not started");
        }
        return url;
    }

    /** How long {@link #start()} took until the registry was ready. */
    public Duration startupTime() {
        return startupTime;
    }

    /** The registry's process id (of the JVM started), or -1 when not running. */
    public long pid() {
        return process == null ? -1 : process.pid();
    }

    /** The file receiving the registry's output (deleted by {@link #close()} after a successful start). */
    public Path logFile() {
        return logFile;
    }

    /** Kills the process tree, waits for it to end and deletes the log of a successful run. Idempotent. */
    @Override
    public synchronized void close() {
        if (process == null) {
            return;
        }
        killTree();
        if (shutdownHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or about to; nothing to remove
            }
        }
        process = null;
        closed.countDown();
        if (startupTime != null && ownsLogFile) {
            deleteQuietly(logFile); // a failed start keeps its log for diagnosis
        }
    }

    /** The shutdown hook: the owner's close, if it comes within the grace, or a kill of the tree. */
    private void killOnExit() {
        try {
            if (closed.await(exitGrace.toMillis(), TimeUnit.MILLISECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        killTree();
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // a leftover log file in the temp directory is harmless
        }
    }

    private void killTree() {
        Process p = process;
        if (p == null) {
            return;
        }
        List<ProcessHandle> tree = new ArrayList<>(p.descendants().toList());
        tree.add(p.toHandle());
        tree.forEach(ProcessHandle::destroy);
        boolean endedByItself = true;
        for (ProcessHandle handle : tree) {
            try {
                handle.onExit().get(30, TimeUnit.SECONDS); // a first run writes its CDS archive while exiting
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                endedByItself = false;
                break;
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                handle.destroyForcibly();
                endedByItself = false;
            }
        }
        tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        if (cds != null) {
            cds.processEnded(endedByItself);
        }
    }

    private boolean answers() {
        if (!process.isAlive()) {
            throw new IllegalStateException("registry process exited with code " + process.exitValue());
        }
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url + "/subjects"))
                    .timeout(Duration.ofSeconds(2)).GET().build(), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    private static Path java() {
        String override = System.getProperty("quanta.apicurio.java");
        if (override != null) {
            return Path.of(override);
        }
        if (Runtime.version().feature() < 21) {
            throw new IllegalStateException("Apicurio Registry needs Java 21+; this JVM is " + Runtime.version()
                    + ": run under a JDK 21+ or set -Dquanta.apicurio.java=/path/to/java");
        }
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }
}
