package io.quanta.chaos.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One {@code quanta} command ({@code io.quanta.cli.QuantaMain}) in a child JVM: this JVM's java binary and class
 * path ({@link #classPath()}), its output (stdout and stderr) appended to a log file. {@link #kill9()} is a real {@code kill -9}
 * ({@link Process#destroyForcibly()}): no shutdown hook runs, nothing is flushed. Every child still alive when this JVM
 * exits is killed the same way, so an aborted run leaves no process behind.
 */
public final class ChildJvm {

    private static final String MAIN = "io.quanta.cli.QuantaMain";
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly),
                "chaos-children-shutdown"));
    }

    private final String name;
    private final Process process;
    private final Path logFile;
    private final Instant startedAt;

    private ChildJvm(String name, Process process, Path logFile, Instant startedAt) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
        this.startedAt = startedAt;
    }

    /**
     * Starts {@code quanta <args>}.
     *
     * @param name       what the child is, for messages (e.g. {@code scheduler#3})
     * @param jvmOptions heap and GC options
     * @param logFile    receives the child's output (appended)
     */
    public static ChildJvm start(String name, List<String> jvmOptions, List<String> args, Path logFile) {
        return startMain(name, MAIN, jvmOptions, args, logFile);
    }

    /**
     * Starts {@code mainClass <args>}, any main class of the children's class path, the same way as {@link #start}
     * (e.g. a benchmark's own topology in a process of its own).
     */
    public static ChildJvm startMain(String name, String mainClass, List<String> jvmOptions, List<String> args,
                                     Path logFile) {
        List<String> command = new ArrayList<>();
        command.add(javaBinary());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath());
        command.add(mainClass);
        command.addAll(args);
        try {
            Files.createDirectories(logFile.getParent());
            Files.writeString(logFile, "# " + Instant.now() + " " + name + ": " + String.join(" ", args) + "\n",
                    StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile())).start();
            LIVE.add(process);
            process.onExit().thenRun(() -> LIVE.remove(process));
            return new ChildJvm(name, process, logFile, Instant.now());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
    }

    /**
     * The children's class path: this JVM's, or {@code -Dchaos.child.classpath=...} to run the scheduler and the
     * connectors from another build (an earlier commit, to show that a scenario fails there).
     */
    public static String classPath() {
        return System.getProperty("chaos.child.classpath", System.getProperty("java.class.path"));
    }

    /** The java binary running this JVM (the children run the same JDK). */
    static String javaBinary() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public Path logFile() {
        return logFile;
    }

    public Instant startedAt() {
        return startedAt;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** {@code kill -9} and wait until the process is gone; returns the moment it was sent. */
    public Instant kill9() {
        Instant at = Instant.now();
        process.destroyForcibly();
        awaitExit(Duration.ofSeconds(30));
        return at;
    }

    /** SIGTERM (the command's shutdown hook runs), then {@code kill -9} after {@code grace}. */
    public void stop(Duration grace) {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        if (!awaitExit(grace)) {
            process.destroyForcibly();
            awaitExit(Duration.ofSeconds(30));
        }
    }

    private boolean awaitExit(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The exit code, or -1 while it runs. */
    public int exitCode() {
        return process.isAlive() ? -1 : process.exitValue();
    }

    /** The last {@code lines} lines of the log. */
    public String tail(int lines) {
        return LogFiles.tail(logFile, lines);
    }

    @Override
    public String toString() {
        return name + " (pid " + pid() + ", log " + logFile + ")";
    }
}
