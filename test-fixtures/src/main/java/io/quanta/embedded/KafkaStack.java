package io.quanta.embedded;

/**
 * A running Kafka cluster plus a Confluent-compatible schema registry, for integration tests and local runs. Two
 * implementations behind this one interface, so the same tests run in both worlds: {@link EmbeddedKafkaStack}
 * (in-JVM KRaft broker and an Apicurio child process) and {@link TestcontainersKafkaStack} (Docker containers).
 *
 * <p>Use in a test module (dependency {@code io.quanta:quanta-embedded}, scope {@code test}). The stack starts once
 * per test JVM and is shared by every test class; it stops when the JVM ends:
 *
 * <pre>{@code
 * @ExtendWith(KafkaStackExtension.class)
 * class MyIT {
 *     @Test
 *     void shouldDoSomething(KafkaStack stack) {
 *         Properties props = new Properties();
 *         props.put("bootstrap.servers", stack.bootstrapServers());
 *         // schema registry: stack.registryUrl()
 *     }
 * }
 * }</pre>
 *
 * or without JUnit, {@code KafkaStacks.shared()}. Topics are NOT created automatically (embedded broker): create the
 * ones a test needs, with unique names because the stack is shared.
 */
public interface KafkaStack extends AutoCloseable {

    /** {@code host:port[,host:port]} of the cluster. */
    String bootstrapServers();

    /** Base URL of the registry's Confluent-compatible API (no trailing slash). */
    String registryUrl();

    /** {@code embedded} or {@code testcontainers}. */
    String kind();

    /** Stops everything this stack started. */
    @Override
    void close();
}
