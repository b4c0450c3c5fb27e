package io.quanta.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** The embedded stack (in-JVM KRaft broker + Apicurio child process): works, and stops its whole process tree. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EmbeddedKafkaStackIT extends KafkaStackContract {

    private static EmbeddedKafkaStack stack;

    @BeforeAll
    static void start() {
        stack = EmbeddedKafkaStack.start(Duration.ofMinutes(3));
    }

    @AfterAll
    static void stop() {
        stack.close();
    }

    @Test
    @Order(1)
    void shouldCarryRecordsWhenBrokerIsStarted() throws Exception {
        assertBrokerCarriesRecords(stack);
    }

    @Test
    @Order(2)
    void shouldAnswerWithBackwardCompatibilityWhenRegistryIsStarted() throws Exception {
        assertRegistryIsBackwardCompatible(stack);
        assertThat(stack.registryUrl()).startsWith("http://127.0.0.1:").endsWith("/apis/ccompat/v7");
        assertThat(stack.bootstrapServers()).startsWith("127.0.0.1:");
    }

    @Test
    @Order(3)
    void shouldKillRegistryTreeAndFreeBrokerPortWhenClosed() {
        long pid = stack.registry().pid();
        java.nio.file.Path registryLog = stack.registry().logFile();
        int brokerPort = Integer.parseInt(stack.bootstrapServers().substring(stack.bootstrapServers()
                .lastIndexOf(':') + 1));
        Optional<ProcessHandle> registryProcess = ProcessHandle.of(pid);
        assertThat(registryProcess).hasValueSatisfying(p -> assertThat(p.isAlive()).isTrue());

        stack.close();

        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        assertThat(stack.registry().pid()).isEqualTo(-1);
        assertThat(connects(brokerPort)).isFalse();
        assertThat(stack.broker().dataDir()).doesNotExist();
        assertThat(registryLog).doesNotExist();
    }

    private static boolean connects(int port) {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
