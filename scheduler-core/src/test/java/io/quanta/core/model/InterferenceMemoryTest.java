package io.quanta.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class InterferenceMemoryTest {

    @Test
    void shouldRememberAPairInEitherOrderWhenRecorded() {
        InterferenceMemory m = InterferenceMemory.empty(4).record("lstm", "resnet50");

        assertThat(m.isBadPair("resnet50", "lstm")).isTrue();
        assertThat(m.isBadPair("lstm", "resnet50")).isTrue();
        assertThat(m.isBadPair("lstm", "vgg16")).isFalse();
    }

    @Test
    void shouldForgetTheOldestPairWhenFull() {
        InterferenceMemory m = InterferenceMemory.empty(2).record("a", "b").record("c", "d").record("e", "f");

        assertThat(m.isBadPair("a", "b")).isFalse();
        assertThat(m.pairs()).containsExactly(new InterferenceMemory.Pair("c", "d"), new InterferenceMemory.Pair("e", "f"));
    }

    @Test
    void shouldRoundTripThroughItsBinaryEncoding() {
        InterferenceMemory m = InterferenceMemory.empty(8).record("lstm", "lstm").record("vgg16", "bert");

        assertThat(InterferenceMemory.fromBytes(m.toBytes())).isEqualTo(m);
    }
}
