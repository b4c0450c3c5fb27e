package io.quanta.embedded;

import java.net.http.HttpClient;
import java.time.Duration;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * {@link KafkaStack} in Docker: the {@code apache/kafka} image (KRaft) and the {@code apicurio/apicurio-registry}
 * image, with compatibility set to BACKWARD. Images can be changed with the system properties
 * {@code quanta.kafka.image} and {@code quanta.apicurio.image}. Only usable where a Docker engine is available.
 */
public final class TestcontainersKafkaStack implements KafkaStack {

    private final Network network;
    private final KafkaContainer kafka;
    private final GenericContainer<?> registry;

    private TestcontainersKafkaStack(Network network, KafkaContainer kafka, GenericContainer<?> registry) {
        this.network = network;
        this.kafka = kafka;
        this.registry = registry;
    }

    /** Starts both containers and returns once they are ready. */
    @SuppressWarnings("resource")
    public static TestcontainersKafkaStack start() {
        Network network = Network.newNetwork();
        KafkaContainer kafka = new KafkaContainer(DockerImageName.parse(
                System.getProperty("quanta.kafka.image", "apache/kafka:" + Versions.kafka())))
                .withNetwork(network);
        GenericContainer<?> registry = new GenericContainer<>(DockerImageName.parse(
                System.getProperty("quanta.apicurio.image", "apicurio/apicurio-registry:" + Versions.apicurio())))
                .withNetwork(network)
                .withExposedPorts(8080)
                .waitingFor(Wait.forHttp("/apis/ccompat/v7/subjects").forStatusCode(200)
                        .withStartupTimeout(Duration.ofMinutes(3)));
        kafka.start();
        registry.start();
        TestcontainersKafkaStack stack = new TestcontainersKafkaStack(network, kafka, registry);
        RegistryAdmin.setBackwardCompatibility(HttpClient.newHttpClient(), stack.registryUrl());
        return stack;
    }

    @Override
    public String bootstrapServers() {
        return kafka.getBootstrapServers();
    }

    @Override
    public String registryUrl() {
        return "http://" + registry.getHost() + ":" + registry.getMappedPort(8080) + "/apis/ccompat/v7";
    }

    @Override
    public String kind() {
        return "testcontainers";
    }

    @Override
    public void close() {
        try {
            registry.stop();
            kafka.stop();
        } finally {
            network.close();
        }
    }
}
