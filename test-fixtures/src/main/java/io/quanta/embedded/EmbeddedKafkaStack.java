package io.quanta.embedded;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * {@link KafkaStack} made of an {@link EmbeddedKafkaBroker} and an {@link ApicurioRegistryProcess}, started in
 * parallel. Needs no Docker; needs the registry distribution (downloaded by the build).
 */
public final class EmbeddedKafkaStack implements KafkaStack {

    private final EmbeddedKafkaBroker broker;
    private final ApicurioRegistryProcess registry;

    private EmbeddedKafkaStack(EmbeddedKafkaBroker broker, ApicurioRegistryProcess registry) {
        this.broker = broker;
        this.registry = registry;
    }

    /** Starts the broker and the registry (in parallel) and returns once both are ready. */
    public static EmbeddedKafkaStack start(Duration registryTimeout) {
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().build();
        ApicurioRegistryProcess registry = ApicurioRegistryProcess.create(registryTimeout);
        CompletableFuture<?> registryStarted = CompletableFuture.runAsync(registry::start);
        try {
            broker.start();
            registryStarted.join();
        } catch (RuntimeException | Error e) {
            registryStarted.cancel(false);
            registryStarted.exceptionally(t -> null).join();
            registry.close();
            broker.close();
            if (e instanceof CompletionException && e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
        return new EmbeddedKafkaStack(broker, registry);
    }

    public EmbeddedKafkaBroker broker() {
        return broker;
    }

    public ApicurioRegistryProcess registry() {
        return registry;
    }

    @Override
    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    @Override
    public String registryUrl() {
        return registry.url();
    }

    @Override
    public String kind() {
        return "embedded";
    }

    @Override
    public void close() {
        try {
            registry.close();
        } finally {
            broker.close();
        }
    }
}
