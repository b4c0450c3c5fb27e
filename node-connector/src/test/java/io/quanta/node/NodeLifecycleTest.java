package io.quanta.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.embedded.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The node connector's shutdown order and its stop on a failed part, without a broker. */
class NodeLifecycleTest {

    private final NodeLifecycle lifecycle = new NodeLifecycle("n1");
    private final List<String> closed = new CopyOnWriteArrayList<>();

    @Test
    void shouldCloseThePartsInTheReverseOrderOfTheirStartOnce() throws Exception {
        lifecycle.start(() -> {
            lifecycle.onClose(() -> closed.add("runner"));
            lifecycle.onClose(() -> closed.add("outbox"));
            lifecycle.onClose(() -> closed.add("commands"));
        });

        lifecycle.close();
        lifecycle.close();
        lifecycle.awaitTermination();

        assertThat(closed).containsExactly("commands", "outbox", "runner");
    }

    @Test
    void shouldReleaseWhatAFailedStartTookAndRethrowItsFailure() throws Exception {
        IllegalStateException noGpus = new IllegalStateException("nvidia-smi failed");

        assertThatThrownBy(() -> lifecycle.start(() -> {
            lifecycle.onClose(() -> closed.add("runner"));
            throw noGpus;
        })).isSameAs(noGpus);
        lifecycle.awaitTermination();

        assertThat(closed).containsExactly("runner");
        assertThat(lifecycle.failure()).as("a failed start is the caller's error, not a stop on failure").isEmpty();
    }

    @Test
    void shouldRefuseASecondStart() {
        lifecycle.start(() -> { });

        assertThatThrownBy(() -> lifecycle.start(() -> { })).isInstanceOf(IllegalStateException.class)
                .hasMessage("node connector n1 already started");
    }

    @Test
    void shouldRecordAFailureActOnItAndCloseFromAThreadOfItsOwn() throws Exception {
        lifecycle.start(() -> lifecycle.onClose(() -> closed.add("closed by " + Thread.currentThread().getName())));
        NoClassDefFoundError error = new NoClassDefFoundError("io/quanta/node/runner/Gone");

        lifecycle.stopOnFailure(error, () -> closed.add("fenced, failed " + lifecycle.failed()));
        Await.until("the connector closed", Duration.ofSeconds(30), () -> closed.size() == 2);
        lifecycle.awaitTermination();

        assertThat(closed).containsExactly("fenced, failed true", "closed by quanta-node-failed");
        assertThat(lifecycle.failure()).get().isInstanceOf(IllegalStateException.class)
                .extracting(Throwable::getCause).isSameAs(error);
    }
}
