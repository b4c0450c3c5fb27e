package io.quanta.embedded;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The Docker stack passes the same contract; skipped where no Docker engine is available. */
class TestcontainersKafkaStackIT extends KafkaStackContract {

    private static TestcontainersKafkaStack stack;

    @BeforeAll
    static void start() {
        assumeTrue(KafkaStacks.dockerAvailable(), "no Docker engine: Testcontainers skipped");
        stack = TestcontainersKafkaStack.start();
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void shouldCarryRecordsWhenBrokerIsStarted() throws Exception {
        assertBrokerCarriesRecords(stack);
    }

    @Test
    void shouldAnswerWithBackwardCompatibilityWhenRegistryIsStarted() throws Exception {
        assertRegistryIsBackwardCompatible(stack);
    }
}
