package io.quanta.streams.cell;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.message.BinaryMessageDecoder;

/**
 * Every version of a state schema the scheduler has written, from the schemas module's resources
 * ({@code io/quanta/schemas/state/history/<n>/<Name>.avsc}, n = 1, 2, ...). A single-object decoder knows only its own
 * schema until it is given the others; given these, it reads a changelog written by any earlier build, resolving each
 * record against the current schema (a rolling upgrade). {@code StateSchemaHistoryTest} in the schemas module keeps
 * the list complete and every version BACKWARD compatible with the current schema.
 */
final class StateSchemaHistory {

    private static final String ROOT = "/io/quanta/schemas/state/history/";

    private StateSchemaHistory() {
    }

    /** Gives {@code decoder} every written version of {@code current}'s schema that differs from it. */
    static void addTo(BinaryMessageDecoder<?> decoder, Schema current) {
        long now = SchemaNormalization.parsingFingerprint64(current);
        for (Schema written : versions(current.getName())) {
            if (SchemaNormalization.parsingFingerprint64(written) != now) {
                decoder.addSchema(written);
            }
        }
    }

    /** The written versions of the schema named {@code name}, oldest first; fails when there is none. */
    static List<Schema> versions(String name) {
        List<Schema> versions = new ArrayList<>();
        for (int n = 1; ; n++) {
            try (InputStream in = StateSchemaHistory.class.getResourceAsStream(ROOT + n + "/" + name + ".avsc")) {
                if (in == null) {
                    break;
                }
                versions.add(new Schema.Parser().parse(in));
            } catch (IOException e) {
                throw new UncheckedIOException("state schema history of " + name + ", version " + n, e);
            }
        }
        if (versions.isEmpty()) {
            throw new IllegalStateException("no state schema history for " + name + " under " + ROOT);
        }
        return versions;
    }
}
