package io.quanta.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.embedded.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class OutboxTest {

    private final List<String> sent = new ArrayList<>();
    private final AtomicBoolean brokerUp = new AtomicBoolean(true);
    private final AtomicInteger attempts = new AtomicInteger();

    private void send(String item) {
        attempts.incrementAndGet();
        if (!brokerUp.get()) {
            throw new IllegalStateException("broker unreachable");
        }
        synchronized (sent) {
            sent.add(item);
        }
    }

    private List<String> sent() {
        synchronized (sent) {
            return List.copyOf(sent);
        }
    }

    private Outbox<String> outbox(int capacity) {
        return new Outbox<>("test-outbox", this::send, capacity, s -> s.startsWith("telemetry"),
                Duration.ofMillis(5), Duration.ofMillis(20));
    }

    @Test
    void shouldDeliverEveryItemOnceInOrderAfterAnOutage() {
        brokerUp.set(false);
        try (Outbox<String> outbox = outbox(100)) {
            for (int i = 0; i < 10; i++) {
                outbox.add("event-" + i);
            }
            Await.until("several failed attempts", Duration.ofSeconds(10), () -> attempts.get() >= 3);
            assertThat(sent()).isEmpty();

            brokerUp.set(true);

            Await.until("all delivered", Duration.ofSeconds(10), () -> outbox.pending() == 0);
            assertThat(outbox.failures()).isGreaterThanOrEqualTo(3);
        }
        assertThat(sent()).containsExactly("event-0", "event-1", "event-2", "event-3", "event-4", "event-5",
                "event-6", "event-7", "event-8", "event-9");
    }

    @Test
    void shouldKeepOnlyTheNewestLatestItemWhileItCannotSend() {
        brokerUp.set(false);
        try (Outbox<String> outbox = outbox(100)) {
            outbox.offerLatest("heartbeat-1");
            Await.until("the first heartbeat was tried", Duration.ofSeconds(10), () -> attempts.get() >= 1);
            outbox.offerLatest("heartbeat-2");
            outbox.offerLatest("heartbeat-3");
            brokerUp.set(true);
            Await.until("delivered", Duration.ofSeconds(10), () -> outbox.pending() == 0);
        }
        assertThat(sent()).containsExactly("heartbeat-1", "heartbeat-3");
    }

    @Test
    void shouldDropOldestTelemetryButNeverEventsWhenFull() {
        brokerUp.set(false);
        List<String> expected = new ArrayList<>();
        try (Outbox<String> outbox = outbox(3)) {
            outbox.add("event-0");
            Await.until("the publisher holds event-0", Duration.ofSeconds(10), () -> attempts.get() >= 1);
            outbox.add("telemetry-1");
            outbox.add("telemetry-2");
            outbox.add("event-3");
            outbox.add("event-4");
            outbox.add("event-5");
            assertThat(outbox.dropped()).isEqualTo(2);
            brokerUp.set(true);
            Await.until("delivered", Duration.ofSeconds(10), () -> outbox.pending() == 0);
            expected.addAll(List.of("event-0", "event-3", "event-4", "event-5"));
        }
        assertThat(sent()).isEqualTo(expected);
    }

    @Test
    void shouldReportUndeliveredItemsWhenClosedDuringAnOutage() {
        brokerUp.set(false);
        Outbox<String> outbox = outbox(100);
        outbox.add("event-0");

        boolean drained = outbox.close(Duration.ofMillis(100));

        assertThat(drained).isFalse();
        assertThat(sent()).isEmpty();
    }
}
