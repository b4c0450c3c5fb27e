package io.quanta.chaos.infra;

import io.quanta.embedded.ApicurioRegistryProcess;
import io.quanta.embedded.EmbeddedKafkaBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The infrastructure every scenario shares: the embedded KRaft broker in this JVM with a second listener
 * ({@code CHAOS}) reached only through a {@link TcpProxy} (so one client can be cut off), and the Apicurio registry
 * as a child process with its schemas on disk and a fixed port (so it can be stopped and started again with the same
 * schema ids). Scenarios isolate themselves by topic names and application id ({@code ChaosCluster}).
 */
public final class ChaosStack implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ChaosStack.class);
    private static final Duration REGISTRY_START = Duration.ofMinutes(4);

    private final Path runDir;
    private final EmbeddedKafkaBroker broker;
    private final TcpProxy proxy;
    private final ApicurioRegistryProcess registry;
    private final int proxyPort;
    private final int registryPort;

    private ChaosStack(Path runDir, EmbeddedKafkaBroker broker, TcpProxy proxy, int proxyPort,
                       ApicurioRegistryProcess registry, int registryPort) {
        this.runDir = runDir;
        this.broker = broker;
        this.proxy = proxy;
        this.proxyPort = proxyPort;
        this.registry = registry;
        this.registryPort = registryPort;
    }

    /** Starts the broker and the registry (in parallel) under {@code runDir}. */
    public static ChaosStack start(Path runDir) {
        int brokerPort = Ports.free();
        int controllerPort = Ports.free();
        int chaosPort = Ports.free();
        int proxyPort = Ports.freeStable();
        int registryPort = Ports.free();
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().dataDir(runDir.resolve("kafka"))
                .ports(brokerPort, controllerPort)
                .brokerProperty("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:"
                        + controllerPort + ",CHAOS://127.0.0.1:" + chaosPort)
                .brokerProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort
                        + ",CHAOS://127.0.0.1:" + proxyPort)
                .brokerProperty("listener.security.protocol.map",
                        "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,CHAOS:PLAINTEXT")
                .build();
        ApicurioRegistryProcess registry = ApicurioRegistryProcess.persistent(REGISTRY_START,
                runDir.resolve("registry"), registryPort, runDir.resolve("registry.log"));
        TcpProxy proxy = new TcpProxy(proxyPort, chaosPort);
        long began = System.nanoTime();
        CompletableFuture<?> registryStarted = CompletableFuture.runAsync(registry::start);
        try {
            broker.start();
            registryStarted.join();
        } catch (RuntimeException e) {
            registryStarted.cancel(true);
            registry.close();
            broker.close();
            throw e instanceof CompletionException && e.getCause() instanceof RuntimeException cause ? cause : e;
        }
        proxy.start();
        LOG.info("chaos stack up in {} ms: broker {}, partitionable listener via proxy {}, registry {}",
                (System.nanoTime() - began) / 1_000_000, broker.bootstrapServers(), proxyPort, registry.url());
        return new ChaosStack(runDir, broker, proxy, proxyPort, registry, registryPort);
    }

    public Path runDir() {
        return runDir;
    }

    /** The broker's ordinary listener. */
    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    /** The broker through the proxy: a client bootstrapped here can be cut off with {@link #proxy()}. */
    public String partitionableBootstrapServers() {
        return "127.0.0.1:" + proxyPort;
    }

    public TcpProxy proxy() {
        return proxy;
    }

    /** The registry's Confluent-compatible API. */
    public String registryUrl() {
        return "http://127.0.0.1:" + registryPort + "/apis/ccompat/v7";
    }

    public Path registryLog() {
        return registry.logFile();
    }

    /** Stops the registry's process tree (SIGTERM, then kill). */
    public synchronized Instant stopRegistry() {
        Instant at = Instant.now();
        registry.close();
        return at;
    }

    /** Starts the registry again on the same port and data; returns when it answers. */
    public synchronized Instant startRegistry() {
        registry.start();
        return Instant.now();
    }

    @Override
    public void close() {
        proxy.close();
        try {
            registry.close();
        } finally {
            broker.close();
        }
    }
}
