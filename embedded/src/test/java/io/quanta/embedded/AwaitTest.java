package io.quanta.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AwaitTest {

    @Test
    void shouldReturnWhenConditionBecomesTrue() {
        AtomicInteger calls = new AtomicInteger();

        Await.until("third call", Duration.ofSeconds(5), () -> calls.incrementAndGet() >= 3);

        assertThat(calls).hasValue(3);
    }

    @Test
    void shouldNameConditionAndLastErrorWhenTimingOut() {
        assertThatThrownBy(() -> Await.until("the moon turns blue", Duration.ofMillis(50), () -> {
            throw new IllegalStateException("still white");
        })).isInstanceOf(Await.ConditionTimeoutException.class)
                .hasMessageContaining("the moon turns blue")
                .hasMessageContaining("still white");
    }
}
