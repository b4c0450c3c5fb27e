package io.quanta.node;

import io.quanta.node.runner.NodeWorkDir;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;

/**
 * The connector incarnation number: {@code max(previous + 1, clock millis)}, kept in the work directory. It grows on
 * every start, and still grows (with the clock) if the work directory is wiped, so commands addressed to an earlier
 * incarnation are always recognised as stale. A corrupt file is moved aside and the clock decides.
 */
public final class NodeEpoch {

    private NodeEpoch() {
    }

    /** Reads the previous epoch, stores and returns the next one. */
    public static long next(NodeWorkDir workDir, Clock clock) {
        Path file = workDir.epochFile();
        long previous = 0;
        if (Files.isRegularFile(file)) {
            try {
                previous = Long.parseLong(Files.readString(file, StandardCharsets.UTF_8).strip());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the node epoch from " + file, e);
            } catch (NumberFormatException e) {
                // the clock still makes the next epoch larger than any earlier one of this machine
                workDir.moveAside(file, e);
            }
        }
        long next = Math.max(previous + 1, clock.millis());
        NodeWorkDir.writeAtomically(file, Long.toString(next).getBytes(StandardCharsets.UTF_8));
        return next;
    }
}
