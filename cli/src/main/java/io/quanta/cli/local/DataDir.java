package io.quanta.cli.local;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The directory where {@code quanta local} keeps everything between runs, so that a second start resumes:
 * <pre>
 * local.lock          held while a quanta local runs here (and its pid)
 * ports.properties    the ports of the last run, reused when free
 * client.properties   bootstrap.servers and schema.registry.url for other terminals (quanta -c FILE ...); with
 *                     --secure also the first tenant's credentials, and client-&lt;user&gt;.properties per user
 * workload.properties progress of the workload being played
 * kafka/  registry/  scheduler/  nodes/&lt;id&gt;/  reports/&lt;run&gt;/
 * security/           with --secure: SCRAM passwords, the broker's key store, the clients' trust store (owner only)
 * </pre>
 */
public final class DataDir implements AutoCloseable {

    /** The default location: {@code ~/.quanta/local}. */
    public static Path defaultPath() {
        return Path.of(System.getProperty("user.home"), ".quanta", "local");
    }

    private final Path root;
    private FileChannel lockChannel;
    private FileLock lock;

    private DataDir(Path root) {
        this.root = root;
    }

    /**
     * Creates the directory if needed and locks it for this process.
     *
     * @throws IllegalStateException saying which process holds it when another quanta local runs here
     */
    public static DataDir open(Path root) {
        DataDir dir = new DataDir(root.toAbsolutePath().normalize());
        dir.lock();
        return dir;
    }

    public Path root() {
        return root;
    }

    public Path kafka() {
        return root.resolve("kafka");
    }

    public Path registry() {
        return root.resolve("registry");
    }

    public Path scheduler() {
        return root.resolve("scheduler");
    }

    public Path node(String nodeId) {
        return root.resolve("nodes").resolve(nodeId);
    }

    /** Credentials and certificates of a secured run. */
    public Path security() {
        return root.resolve("security");
    }

    public Path reports() {
        return root.resolve("reports");
    }

    /** Whether an earlier run left state here (a broker log directory). */
    public boolean hasState() {
        return Files.exists(kafka().resolve("meta.properties"));
    }

    /** The pid recorded by the quanta local that holds (or held) this directory. */
    public static Optional<Long> ownerPid(Path root) {
        try {
            String text = Files.readString(root.resolve("local.lock")).trim();
            return text.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(text));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Reads a properties file of this directory (empty when absent). */
    public Map<String, String> read(String name) {
        Path file = root.resolve(name);
        Map<String, String> out = new TreeMap<>();
        if (!Files.exists(file)) {
            return out;
        }
        Properties props = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            props.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        props.stringPropertyNames().forEach(k -> out.put(k, props.getProperty(k)));
        return out;
    }

    /** Writes a properties file of this directory atomically (write then rename). */
    public void write(String name, Map<String, String> values, String comment) {
        Properties props = new Properties();
        props.putAll(values);
        Path file = root.resolve(name);
        Path tmp = root.resolve(name + ".tmp");
        try (Writer writer = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            props.store(writer, comment);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        try {
            Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** Releases the lock. Idempotent. */
    @Override
    public synchronized void close() {
        try {
            if (lock != null) {
                lock.release();
            }
            if (lockChannel != null) {
                lockChannel.close();
            }
        } catch (IOException e) {
            // released anyway when the process ends
        } finally {
            lock = null;
            lockChannel = null;
        }
    }

    /** Releases the lock and deletes the whole directory ({@code --clean}). */
    public void delete() {
        close();
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + root, e);
        }
    }

    private void lock() {
        try {
            Files.createDirectories(root);
            lockChannel = FileChannel.open(root.resolve("local.lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, StandardOpenOption.READ);
            lock = lockChannel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot use data directory " + root + ": " + e.getMessage(), e);
        }
        if (lock == null) {
            String who = ownerPid(root).map(pid -> " (pid " + pid + ")").orElse("");
            close();
            throw new IllegalStateException("another quanta local" + who + " is using " + root
                    + ": stop it first, or give another --data-dir");
        }
        try {
            lockChannel.truncate(0);
            lockChannel.write(java.nio.ByteBuffer.wrap(Long.toString(ProcessHandle.current().pid())
                    .getBytes(StandardCharsets.UTF_8)), 0);
            lockChannel.force(false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + root.resolve("local.lock"), e);
        }
    }
}
