package io.quanta.streams.cell;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Map;

/**
 * Writes the {@link StateSamples} records as the current code stores them, as hex under
 * {@code src/test/resources/state/VERSION/}: run it when releasing, so that {@code ReleasedStateTest} checks that
 * every later version reads the state this release wrote (a rolling upgrade reads the old changelog).
 * <pre>java -cp ... io.quanta.streams.cell.ReleasedStateFixtures 0.2.0</pre>
 */
public final class ReleasedStateFixtures {

    private ReleasedStateFixtures() {
    }

    /** The stored bytes of each sample, by file name. */
    static Map<String, byte[]> encoded() {
        return Map.of(
                "job.hex", StateCodecs.encodeJob(StateSamples.job()),
                "node.hex", StateCodecs.encodeNode(StateSamples.node()),
                "assignment.hex", StateCodecs.encodeAssignment(StateSamples.assignment()),
                "meta.hex", StateCodecs.encodeMeta(StateSamples.meta()));
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of("src/test/resources/state", args[0]);
        Files.createDirectories(dir);
        for (Map.Entry<String, byte[]> e : encoded().entrySet()) {
            Files.writeString(dir.resolve(e.getKey()), HexFormat.of().formatHex(e.getValue()) + "\n");
        }
    }
}
