package io.quanta.node.runner;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The node's local working directory and its layout:
 * <pre>
 *   &lt;root&gt;/epoch                                   the connector incarnation counter
 *   &lt;root&gt;/journal/&lt;n&gt;.event                      job events not yet acknowledged by the broker
 *   &lt;root&gt;/corrupt/                                unreadable state files, moved aside
 *   &lt;root&gt;/jobs/&lt;job&gt;/checkpoint/                   default QUANTA_CHECKPOINT_DIR of the job (all attempts)
 *   &lt;root&gt;/jobs/&lt;job&gt;/attempt-&lt;n&gt;/attempt.json      command state of the attempt (command handler)
 *   &lt;root&gt;/jobs/&lt;job&gt;/attempt-&lt;n&gt;/process.json      process of the attempt (process runner)
 *   &lt;root&gt;/jobs/&lt;job&gt;/attempt-&lt;n&gt;/stdout.log, stderr.log, exit-code
 *   &lt;root&gt;/jobs/&lt;job&gt;/attempt-&lt;n&gt;/work/            the process's working directory
 * </pre>
 * Job ids are encoded into safe directory names ({@code [A-Za-z0-9_.-]} kept, anything else as {@code %XX}).
 */
public final class NodeWorkDir {

    /** File name of the command handler's state in an attempt directory. */
    public static final String ATTEMPT_STATE = "attempt.json";

    private static final Logger LOG = LoggerFactory.getLogger(NodeWorkDir.class);

    private final Path root;

    /** Uses (and creates) {@code root}. */
    public NodeWorkDir(Path root) {
        this.root = root.toAbsolutePath().normalize();
        createDirectories(this.root.resolve("jobs"));
    }

    /** The root directory. */
    public Path root() {
        return root;
    }

    /** Directory of one job. */
    public Path jobDir(String jobId) {
        return root.resolve("jobs").resolve(encode(jobId));
    }

    /** Directory of one attempt (not created). */
    public Path attemptDir(AttemptId id) {
        return jobDir(id.jobId()).resolve("attempt-" + id.attempt());
    }

    /** The default checkpoint directory of a job (not created). */
    public Path checkpointDir(String jobId) {
        return jobDir(jobId).resolve("checkpoint");
    }

    /** The file that keeps the connector's epoch. */
    public Path epochFile() {
        return root.resolve("epoch");
    }

    /** Every attempt directory that holds a state file, in a stable order. */
    public List<Path> attemptStateFiles() {
        List<Path> found = new ArrayList<>();
        try (Stream<Path> jobs = Files.list(root.resolve("jobs"))) {
            for (Path job : jobs.sorted().toList()) {
                if (!Files.isDirectory(job)) {
                    continue;
                }
                try (Stream<Path> attempts = Files.list(job)) {
                    attempts.filter(p -> p.getFileName().toString().startsWith("attempt-"))
                            .map(p -> p.resolve(ATTEMPT_STATE))
                            .filter(Files::isRegularFile)
                            .sorted()
                            .forEach(found::add);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + root.resolve("jobs"), e);
        }
        return found;
    }

    /** Creates a directory and its parents. */
    public static Path createDirectories(Path dir) {
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create directory " + dir, e);
        }
    }

    /** Deletes a file or a directory with everything below it; nothing when it does not exist. */
    public static void deleteRecursively(Path path) {
        if (!Files.exists(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> all = Files.walk(path)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + path, e);
        }
    }

    /**
     * Writes a file so that readers see the old or the new content, never a part, and it survives a power loss once
     * this returns: temp file, fsync, atomic rename, fsync of the directory.
     */
    public static void writeAtomically(Path file, byte[] content) {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.createDirectories(file.getParent());
            try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buffer = ByteBuffer.wrap(content);
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
                out.force(true);
            }
            Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            syncDirectory(file.getParent());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /**
     * Moves a state file that cannot be read to {@code <root>/corrupt/} (deletes it when even that fails), with a
     * warning: a damaged file costs what it described, never the connector's start.
     *
     * @return where it went (empty when deleted)
     */
    public Optional<Path> moveAside(Path file, Exception why) {
        Path relative = root.relativize(file.toAbsolutePath().normalize());
        Path target = root.resolve("corrupt").resolve(relative.toString().replace('/', '_') + "." + System.nanoTime());
        try {
            Files.createDirectories(target.getParent());
            Files.move(file, target);
            LOG.warn("unreadable state file {} moved to {}: {}", file, target, why.toString());
            return Optional.of(target);
        } catch (IOException e) {
            LOG.warn("unreadable state file {} ({}) cannot be moved aside ({}): deleting it", file, why, e.toString());
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                LOG.warn("cannot delete {} either", file);
            }
            return Optional.empty();
        }
    }

    private static void syncDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // some file systems cannot open a directory for syncing; the rename itself is still atomic there
            LOG.debug("cannot sync directory {}: {}", dir, e.toString());
        }
    }

    static String encode(String jobId) {
        StringBuilder out = new StringBuilder();
        for (byte b : jobId.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            boolean safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '_' || c == '-' || (c == '.' && !out.isEmpty());
            if (safe) {
                out.append(c);
            } else {
                out.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return out.toString();
    }
}
