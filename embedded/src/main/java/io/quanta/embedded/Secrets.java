package io.quanta.embedded;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * Files that hold secrets (passwords, key stores, client settings with credentials): created readable and writable by
 * the owner only where the file system has POSIX permissions, written atomically; and random passwords.
 */
public final class Secrets {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_DIR = PosixFilePermissions.fromString("rwx------");

    private Secrets() {
    }

    /** 32 random hex digits (128 bits): safe in JAAS strings, SCRAM arguments and properties files unquoted. */
    public static String randomPassword() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** Creates {@code dir} (and parents) and restricts it to its owner. */
    public static void createPrivateDirectory(Path dir) {
        try {
            Files.createDirectories(dir);
            if (posix(dir)) {
                Files.setPosixFilePermissions(dir, OWNER_DIR);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
    }

    /** Creates an empty file only its owner may read (replacing one that exists). */
    static void createPrivateFile(Path file) throws IOException {
        Files.deleteIfExists(file);
        if (posix(file.getParent())) {
            try {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_FILE));
            } catch (FileAlreadyExistsException e) {
                Files.setPosixFilePermissions(file, OWNER_FILE);
            }
        } else {
            Files.createFile(file);
        }
    }

    /** Writes {@code values} as a properties file only its owner may read, atomically (write, then rename). */
    public static void writePrivate(Path file, Map<?, ?> values, String comment) {
        Properties props = new Properties();
        values.forEach((k, v) -> props.setProperty(k.toString(), v.toString()));
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            createPrivateFile(tmp);
            try (Writer writer = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                props.store(writer, comment);
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** Reads a properties file. */
    public static Properties read(Path file) {
        Properties props = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            props.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return props;
    }

    private static boolean posix(Path dir) {
        return dir != null && Files.getFileAttributeView(dir, java.nio.file.attribute.PosixFileAttributeView.class)
                != null;
    }
}
