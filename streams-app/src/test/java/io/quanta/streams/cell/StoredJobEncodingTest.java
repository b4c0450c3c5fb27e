package io.quanta.streams.cell;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * A job's stored bytes do not change with the shape of {@link JobRecord}: the fixtures under {@code state/6f5199d/}
 * are {@link StateSamples#job()} and {@link StateSamples#queuedJob()} as that commit (the last with a mutable job
 * record) stored them, and today's code must read every field back and write the very same bytes (the jobs store
 * and its changelog keep holding what older instances wrote, and compaction compares nothing but keys).
 */
class StoredJobEncodingTest {

    private static final String WRITTEN_BY = "6f5199d";

    @Test
    void shouldReadAndWriteTheSampleJobAsTheMutableRecordDid() throws IOException {
        assertSameBytesAndFields("job.hex", StateSamples.job());
    }

    @Test
    void shouldReadAndWriteAQueuedJobWithUnsetValuesAsTheMutableRecordDid() throws IOException {
        assertSameBytesAndFields("job-queued.hex", StateSamples.queuedJob());
    }

    private static void assertSameBytesAndFields(String file, JobRecord expected) throws IOException {
        byte[] stored = ReleasedStateTest.released(WRITTEN_BY, file);

        assertThat(StateSamples.differences(expected, StateCodecs.decodeJob(stored))).as(file).isEmpty();
        assertThat(StateCodecs.encodeJob(expected)).as(file).isEqualTo(stored);
        assertThat(StateCodecs.encodeJob(StateCodecs.decodeJob(stored))).as(file + " read and written again")
                .isEqualTo(stored);
    }
}
