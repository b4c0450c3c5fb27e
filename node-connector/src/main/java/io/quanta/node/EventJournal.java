package io.quanta.node;

import io.quanta.node.runner.NodeWorkDir;
import io.quanta.schemas.JobEvent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job events this node has reported but the broker has not yet acknowledged, on disk: an event is written (and
 * fsynced) here before it counts as sent, and deleted once the broker acknowledged it, so a {@code kill -9} of the
 * connector during a broker outage loses no COMPLETED. A restarted connector sends what it finds here again, before
 * anything else; an event may therefore arrive twice (the scheduler treats a repeated event as a duplicate), never
 * zero times.
 *
 * <p>One small file per event, {@code <workDir>/journal/<sequence>.event}, holding the event in Avro's single-object
 * encoding (schema fingerprint + binary, no registry needed): events are few (a handful per attempt), so one atomic
 * file each is simpler and safer than an append-only log with its own truncation and compaction rules. We write our
 * own because the Kafka producer keeps its buffer in memory only and no small, well-kept library offers a durable
 * queue of a few records. A file that cannot be read is moved to {@code <workDir>/corrupt/} with a warning.
 * Thread-safe.
 */
public final class EventJournal {

    private static final Logger LOG = LoggerFactory.getLogger(EventJournal.class);
    private static final String SUFFIX = ".event";

    private final NodeWorkDir workDir;
    private final Path dir;
    private long nextSequence;
    private int pending;

    /** A journalled event and its place in the journal. */
    public record Entry(long sequence, JobEvent event) {
    }

    /** Uses (and creates) {@code <root>/journal}. */
    public EventJournal(NodeWorkDir workDir) {
        this.workDir = workDir;
        this.dir = NodeWorkDir.createDirectories(workDir.root().resolve("journal"));
    }

    /**
     * The events a previous run journalled and never saw acknowledged, oldest first. Unreadable files are moved aside;
     * left-over temporary files (a crash while writing: the event was never counted as sent) are deleted.
     */
    public synchronized List<Entry> recover() {
        List<Entry> found = new ArrayList<>();
        for (Path file : files()) {
            String name = file.getFileName().toString();
            if (!name.endsWith(SUFFIX)) {
                deleteQuietly(file);
                continue;
            }
            try {
                long sequence = Long.parseLong(name.substring(0, name.length() - SUFFIX.length()));
                found.add(new Entry(sequence, JobEvent.fromByteBuffer(ByteBuffer.wrap(Files.readAllBytes(file)))));
                nextSequence = Math.max(nextSequence, sequence + 1);
            } catch (IOException | RuntimeException e) {
                workDir.moveAside(file, e);
            }
        }
        found.sort(java.util.Comparator.comparingLong(Entry::sequence));
        pending = found.size();
        if (!found.isEmpty()) {
            LOG.info("{} job event(s) of an earlier run were never acknowledged by the broker: sending them again",
                    found.size());
        }
        return found;
    }

    /** Writes the event durably (fsync) and returns its entry. */
    public synchronized Entry append(JobEvent event) {
        Entry entry = new Entry(nextSequence++, event);
        try {
            NodeWorkDir.writeAtomically(file(entry.sequence()), bytes(event.toByteBuffer()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode " + event.getType() + " of " + event.getJobId(), e);
        }
        pending++;
        return entry;
    }

    /** The broker acknowledged the entry: forget it. */
    public synchronized void delivered(Entry entry) {
        if (deleteQuietly(file(entry.sequence()))) {
            pending--;
        }
    }

    /** Events written and not yet acknowledged. */
    public synchronized int pending() {
        return pending;
    }

    private Path file(long sequence) {
        return dir.resolve(String.format("%020d%s", sequence, SUFFIX));
    }

    private List<Path> files() {
        try (Stream<Path> all = Files.list(dir)) {
            return all.sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    private static boolean deleteQuietly(Path file) {
        try {
            return Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.warn("cannot delete {}: {}", file, e.toString());
            return false;
        }
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] out = new byte[buffer.remaining()];
        buffer.get(out);
        return out;
    }
}
