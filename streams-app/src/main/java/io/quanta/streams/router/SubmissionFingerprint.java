package io.quanta.streams.router;

import io.quanta.schemas.JobSubmitted;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.TreeMap;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * Identity of a submission's content: SHA-256 (first 16 hex digits) of its Avro encoding with the submission time
 * cleared and the environment sorted. Equal fingerprints = the same job submitted again (idempotent).
 */
final class SubmissionFingerprint {

    private static final SpecificDatumWriter<JobSubmitted> WRITER = new SpecificDatumWriter<>(JobSubmitted.class);

    private SubmissionFingerprint() {
    }

    static String of(JobSubmitted job) {
        JobSubmitted canonical = JobSubmitted.newBuilder(job).setSubmittedAt(Instant.EPOCH)
                .setEnv(new TreeMap<>(job.getEnv())).build();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
        try {
            WRITER.write(canonical, encoder);
            encoder.flush();
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes.toByteArray()), 0, 8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
