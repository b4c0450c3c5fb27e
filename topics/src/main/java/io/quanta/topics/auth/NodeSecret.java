package io.quanta.topics.auth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * The scheduler's node secret, from which every node's key is derived ({@link NodeMac}). Kept in a file of hex text
 * readable by the scheduler and the operator only; never printed ({@link #toString()} masks it).
 */
public final class NodeSecret {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] bytes;

    private NodeSecret(byte[] bytes) {
        if (bytes.length < NodeMac.MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("a node secret needs at least " + NodeMac.MIN_SECRET_BYTES
                    + " bytes (" + 2 * NodeMac.MIN_SECRET_BYTES + " hex digits), got " + bytes.length);
        }
        this.bytes = bytes.clone();
    }

    /** The secret in {@code file} (hex text). */
    public static NodeSecret read(Path file) {
        try {
            return new NodeSecret(NodeMac.fromHex(Files.readString(file, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the node secret " + file, e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("node secret " + file + ": " + e.getMessage(), e);
        }
    }

    /** A new random secret of 32 bytes. */
    public static NodeSecret generate() {
        byte[] b = new byte[NodeMac.MIN_SECRET_BYTES];
        RANDOM.nextBytes(b);
        return new NodeSecret(b);
    }

    /** Writes the secret as hex to {@code file}, readable by its owner only. */
    public void write(Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.deleteIfExists(file);
            Files.createFile(file, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
            Files.writeString(file, NodeMac.toHex(bytes) + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the node secret " + file, e);
        }
    }

    /** The key of one node. */
    public byte[] keyOf(String nodeId) {
        return NodeMac.nodeKey(bytes, nodeId);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NodeSecret other && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return "NodeSecret[hidden]";
    }
}
