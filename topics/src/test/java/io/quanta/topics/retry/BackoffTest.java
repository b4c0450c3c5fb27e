package io.quanta.topics.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    void shouldDoubleEachDelayUpToTheCapAndStartOverAfterASuccess() {
        Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofMillis(500));

        assertThat(Stream.generate(backoff::next).limit(5)).containsExactly(Duration.ofMillis(100),
                Duration.ofMillis(200), Duration.ofMillis(400), Duration.ofMillis(500), Duration.ofMillis(500));
        backoff.reset();
        assertThat(backoff.next()).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void shouldRefuseANegativeFirstDelayOrACapBelowIt() {
        assertThatThrownBy(() -> new Backoff(Duration.ofMillis(-1), Duration.ofSeconds(1)))
                .hasMessageContaining("initial PT-0.001S");
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .hasMessageContaining("max PT1S");
    }
}
