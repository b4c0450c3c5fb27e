package io.quanta.topics.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.topics.retry.Backoff;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.Test;

/** How {@link TopicsApply} waits for a topic the broker's metadata does not know yet (the rest: TopicsApplyIT). */
class TopicsApplyTest {

    private static final KafkaException UNKNOWN = new KafkaException("Cannot describe topic t",
            new UnknownTopicOrPartitionException("This server does not host this topic-partition."));

    private final List<Duration> waits = new ArrayList<>();
    private final Backoff backoff = new Backoff(TopicsApply.FIRST_DESCRIBE_WAIT, TopicsApply.MAX_DESCRIBE_WAIT);

    @Test
    void shouldDescribeAgainWithDoublingWaitsWhileTheTopicIsUnknown() {
        Supplier<String> describe = failingFirst(4, UNKNOWN);

        String described = TopicsApply.whenKnown(describe, Duration.ofSeconds(30), backoff, this::recordWait);

        assertThat(described).isEqualTo("described");
        assertThat(waits).containsExactly(Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(200),
                Duration.ofMillis(400));
    }

    @Test
    void shouldThrowAtOnceWhenDescribingFailsForAnotherReason() {
        KafkaException denied = new KafkaException("Cannot describe topic t", new TopicAuthorizationException("t"));

        assertThatThrownBy(() -> TopicsApply.whenKnown(failingFirst(1, denied), Duration.ofSeconds(30), backoff,
                this::recordWait)).isSameAs(denied);
        assertThat(waits).isEmpty();
    }

    @Test
    void shouldGiveUpOnceTheTimeoutHasPassed() {
        assertThatThrownBy(() -> TopicsApply.whenKnown(failingFirst(1, UNKNOWN), Duration.ZERO, backoff,
                this::recordWait)).isSameAs(UNKNOWN);
        assertThat(waits).isEmpty();
    }

    @Test
    void shouldNeverWaitLongerThanTheTimeLeft() {
        TopicsApply.whenKnown(failingFirst(1, UNKNOWN), Duration.ofMillis(20), backoff, this::recordWait);

        assertThat(waits).singleElement().satisfies(w -> assertThat(w).isPositive()
                .isLessThanOrEqualTo(Duration.ofMillis(20)));
    }

    @Test
    void shouldGiveUpWhenItsWaitIsInterrupted() {
        assertThatThrownBy(() -> TopicsApply.whenKnown(failingFirst(2, UNKNOWN), Duration.ofSeconds(30), backoff,
                delay -> {
                    waits.add(delay);
                    return false;
                })).isSameAs(UNKNOWN);
        assertThat(waits).containsExactly(Duration.ofMillis(50));
    }

    private boolean recordWait(Duration delay) {
        waits.add(delay);
        return true;
    }

    /** Throws {@code failure} on the first {@code failures} calls, then answers "described". */
    private static Supplier<String> failingFirst(int failures, KafkaException failure) {
        AtomicInteger calls = new AtomicInteger();
        return () -> {
            if (calls.getAndIncrement() < failures) {
                throw failure;
            }
            return "described";
        };
    }
}
