package io.quanta.streams.cell;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * State written by a released scheduler stays readable: a rolling upgrade reads the old changelog and the old RocksDB
 * stores. The fixtures under {@code state/VERSION/} are the {@link StateSamples} records as that release stored them
 * ({@link ReleasedStateFixtures}); each must decode to the same field values today. A field added since a release
 * is compared with the value the decoder gives state without it: list it in that release's test with its default.
 */
class ReleasedStateTest {

    @Test
    void shouldReadEveryFieldOfStateWrittenByRelease010() throws IOException {
        assertReads("0.1.0", "job.hex", StateCodecs::decodeJob, StateSamples.job());
        assertReads("0.1.0", "node.hex", StateCodecs::decodeNode, StateSamples.node());
        assertReads("0.1.0", "assignment.hex", StateCodecs::decodeAssignment, StateSamples.assignment());
        assertReads("0.1.0", "meta.hex", StateCodecs::decodeMeta, StateSamples.meta());
    }

    @Test
    void shouldRoundTripEveryStoredFieldOfEveryStateRecord() {
        assertThat(StateSamples.differences(StateSamples.job(), StateCodecs.decodeJob(
                StateCodecs.encodeJob(StateSamples.job())))).isEmpty();
        assertThat(StateSamples.differences(StateSamples.node(), StateCodecs.decodeNode(
                StateCodecs.encodeNode(StateSamples.node())))).isEmpty();
        assertThat(StateSamples.differences(StateSamples.assignment(), StateCodecs.decodeAssignment(
                StateCodecs.encodeAssignment(StateSamples.assignment())))).isEmpty();
        assertThat(StateSamples.differences(StateSamples.meta(), StateCodecs.decodeMeta(
                StateCodecs.encodeMeta(StateSamples.meta())))).isEmpty();
    }

    @Test
    void shouldSeeAFieldThatTheEncodingLosesAsADifference() {
        JobRecord job = StateSamples.job();
        JobRecord lost = StateCodecs.decodeJob(StateCodecs.encodeJob(job)).with(j -> j.sourceOffset = -1);

        assertThat(StateSamples.differences(job, lost)).singleElement().asString().startsWith("sourceOffset:");
    }

    private static <T> void assertReads(String release, String file, Function<byte[], T> decode, T expected)
            throws IOException {
        assertThat(StateSamples.differences(expected, decode.apply(released(release, file))))
                .as(release + "/" + file).isEmpty();
    }

    /** The bytes of a fixture of {@code release}. */
    static byte[] released(String release, String file) throws IOException {
        String resource = "/state/" + release + "/" + file;
        try (InputStream in = ReleasedStateTest.class.getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            return HexFormat.of().parseHex(new String(in.readAllBytes(), StandardCharsets.US_ASCII).strip());
        }
    }
}
