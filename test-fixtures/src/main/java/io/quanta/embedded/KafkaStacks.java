package io.quanta.embedded;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;

/**
 * The one {@link KafkaStack} of this JVM, started on first use and stopped by a shutdown hook. The kind is chosen by
 * the system property {@code quanta.stack} ({@code embedded}, {@code testcontainers}, or {@code auto}, the default:
 * Testcontainers when a Docker engine is available, else embedded).
 */
public final class KafkaStacks {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaStacks.class);
    private static final Duration REGISTRY_TIMEOUT = Duration.ofMinutes(3);
    private static KafkaStack shared;

    private KafkaStacks() {
    }

    /** The shared stack, started if needed (once per JVM). */
    public static synchronized KafkaStack shared() {
        if (shared == null) {
            long began = System.nanoTime();
            KafkaStack stack = startNew();
            LOG.info("Started {} Kafka stack in {} ms: bootstrap {} registry {}", stack.kind(),
                    (System.nanoTime() - began) / 1_000_000, stack.bootstrapServers(), stack.registryUrl());
            Runtime.getRuntime().addShutdownHook(new Thread(stack::close, "quanta-kafka-stack-shutdown"));
            shared = stack;
        }
        return shared;
    }

    /** A new stack of the configured kind; the caller closes it. */
    public static KafkaStack startNew() {
        return switch (chosenKind()) {
            case "testcontainers" -> TestcontainersKafkaStack.start();
            case "embedded" -> EmbeddedKafkaStack.start(REGISTRY_TIMEOUT);
            default -> throw new IllegalStateException("quanta.stack must be embedded, testcontainers or auto");
        };
    }

    /** {@code testcontainers} or {@code embedded}, after resolving {@code auto}. */
    public static String chosenKind() {
        String kind = System.getProperty("quanta.stack", "auto");
        if (!kind.equals("auto")) {
            return kind;
        }
        return dockerAvailable() ? "testcontainers" : "embedded";
    }

    /** Whether a Docker engine answers (false at once when none is configured). */
    public static boolean dockerAvailable() {
        if (!dockerConfigured()) {
            return false; // nothing to try: skip Testcontainers' probing and its error log
        }
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    /** Whether any Docker endpoint is configured or present: DOCKER_HOST, a local socket, or Testcontainers' file. */
    private static boolean dockerConfigured() {
        Path home = Path.of(System.getProperty("user.home"));
        return System.getenv("DOCKER_HOST") != null
                || Files.exists(Path.of("/var/run/docker.sock"))
                || Files.exists(home.resolve(".docker/run/docker.sock"))
                || Files.exists(home.resolve(".testcontainers.properties"))
                || System.getenv("XDG_RUNTIME_DIR") != null
                        && Files.exists(Path.of(System.getenv("XDG_RUNTIME_DIR"), "docker.sock"));
    }
}
