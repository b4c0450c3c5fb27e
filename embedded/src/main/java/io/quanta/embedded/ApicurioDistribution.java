package io.quanta.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Finds the unpacked Apicurio Registry distribution ({@code quarkus-run.jar} and its {@code lib/}). In order: the
 * system property {@code quanta.apicurio.home} or the environment variable {@code QUANTA_APICURIO_HOME}; the cache
 * {@code ~/.cache/quanta/apicurio-registry-<version>} that the build fills (maven-dependency-plugin unpack); else the
 * archive in the local Maven repository, unpacked into that cache with {@code tar} once.
 */
public final class ApicurioDistribution {

    static final String RUN_JAR = "quarkus-run.jar";
    private static final String MARKER = ".quanta-unpacked";

    private ApicurioDistribution() {
    }

    /** The directory holding {@code quarkus-run.jar}, unpacking the archive if needed; fails with what to do. */
    public static Path locate() {
        String override = Optional.ofNullable(System.getProperty("quanta.apicurio.home"))
                .orElse(System.getenv("QUANTA_APICURIO_HOME"));
        if (override != null && !override.isBlank()) {
            return runJarDir(Path.of(override)).orElseThrow(() -> new IllegalStateException(
                    "No " + RUN_JAR + " under " + override + " (quanta.apicurio.home / QUANTA_APICURIO_HOME)"));
        }
        Path cache = cacheDir();
        Optional<Path> cached = complete(cache);
        if (cached.isPresent()) {
            return cached.get();
        }
        Path archive = archiveInLocalRepository();
        if (!Files.isRegularFile(archive)) {
            throw new IllegalStateException("Apicurio Registry " + Versions.apicurio() + " not found in " + cache
                    + " nor " + archive + ": build once with 'bin/mvn -B -pl embedded -am install -DskipTests' "
                    + "(it downloads the registry from Maven Central) or set QUANTA_APICURIO_HOME");
        }
        return unpack(archive, cache);
    }

    /** {@code ~/.cache/quanta/apicurio-registry-<version>}, where the build unpacks the registry. */
    public static Path cacheDir() {
        return Path.of(System.getProperty("user.home"), ".cache", "quanta", "apicurio-registry-" + Versions.apicurio());
    }

    private static Optional<Path> complete(Path dir) {
        boolean unpackedWhole = Files.exists(dir.resolve(MARKER)) || nonEmpty(dir.resolve(".markers"));
        return unpackedWhole ? runJarDir(dir) : Optional.empty();
    }

    private static Optional<Path> runJarDir(Path dir) {
        if (Files.isRegularFile(dir.resolve(RUN_JAR))) {
            return Optional.of(dir);
        }
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        try (Stream<Path> children = Files.list(dir)) {
            return children.filter(p -> Files.isRegularFile(p.resolve(RUN_JAR))).findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static boolean nonEmpty(Path dir) {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> children = Files.list(dir)) {
            return children.findAny().isPresent();
        } catch (IOException e) {
            return false;
        }
    }

    private static Path archiveInLocalRepository() {
        String repo = Optional.ofNullable(System.getProperty("maven.repo.local"))
                .orElse(Path.of(System.getProperty("user.home"), ".m2", "repository").toString());
        String v = Versions.apicurio();
        return Path.of(repo, "io", "apicurio", "apicurio-registry-app", v, "apicurio-registry-app-" + v + "-all.tar.gz");
    }

    private static synchronized Path unpack(Path archive, Path cache) {
        try {
            Files.createDirectories(cache.getParent());
            Path tmp = Files.createTempDirectory(cache.getParent(), cache.getFileName() + ".tmp");
            Process tar = new ProcessBuilder("tar", "-xzf", archive.toString(), "-C", tmp.toString())
                    .redirectErrorStream(true).start();
            String output = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!tar.waitFor(5, TimeUnit.MINUTES) || tar.exitValue() != 0) {
                throw new IllegalStateException("Cannot unpack " + archive + " with tar: " + output);
            }
            Files.writeString(tmp.resolve(MARKER), archive.toString());
            EmbeddedKafkaBroker.deleteRecursively(cache);
            Files.move(tmp, cache, StandardCopyOption.ATOMIC_MOVE);
            return runJarDir(cache).orElseThrow(() -> new IllegalStateException("No " + RUN_JAR + " in " + archive));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot unpack " + archive + " into " + cache, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while unpacking " + archive, e);
        }
    }
}
