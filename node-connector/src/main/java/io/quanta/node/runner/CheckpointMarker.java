package io.quanta.node.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The language-neutral sign that a job holds a complete checkpoint: the file {@value #FILE_NAME} in its
 * {@code QUANTA_CHECKPOINT_DIR}, written last and atomically (write a temporary file, then rename) once every other
 * checkpoint file is in place. Its content is the job's business (the Python SDK writes JSON with the step). A
 * checkpoint is "fresh" when the marker changed after a suspend request.
 */
public final class CheckpointMarker {

    /** Name of the marker file. */
    public static final String FILE_NAME = "quanta-checkpoint.json";

    /** Fingerprint of a directory without a marker. */
    public static final String NONE = "none";

    private CheckpointMarker() {
    }

    /** Whether the directory holds a complete checkpoint. */
    public static boolean exists(Path checkpointDir) {
        return Files.isRegularFile(checkpointDir.resolve(FILE_NAME));
    }

    /** A string that changes whenever the marker is rewritten (modification time and content), or {@link #NONE}. */
    public static String fingerprint(Path checkpointDir) {
        Path marker = checkpointDir.resolve(FILE_NAME);
        try {
            long modified = Files.getLastModifiedTime(marker).toMillis();
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(marker));
            return modified + ":" + HexFormat.of().formatHex(digest);
        } catch (NoSuchFileException e) {
            return NONE;
        } catch (IOException e) {
            return NONE;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** Whether the directory holds a checkpoint written after the given fingerprint was taken. */
    public static boolean isFresh(Path checkpointDir, String fingerprintBefore) {
        String now = fingerprint(checkpointDir);
        return !now.equals(NONE) && !now.equals(fingerprintBefore);
    }
}
