package io.quanta.core.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class TextAndLiveIndexTest {

    @Test
    void shouldRenderNumbersCompactlyWhateverTheLocale() {
        assertThat(Text.num(3250)).isEqualTo("3250");
        assertThat(Text.num(0.83)).isEqualTo("0.83");
        assertThat(Text.num(1.5)).isEqualTo("1.5");
        assertThat(Text.num(-2.25)).isEqualTo("-2.25");
        assertThat(Text.num(-0.001)).isEqualTo("0");
        assertThat(Text.num(Double.NaN)).isEqualTo("unknown");
        assertThat(Text.num(Double.POSITIVE_INFINITY)).isEqualTo("inf");
    }

    @Test
    void shouldRoundWakeUpsUpToTheNextMillisecondWhenBetween() {
        assertThat(Text.after(Instant.ofEpochSecond(10), 0.0004)).isEqualTo(Instant.ofEpochMilli(10_001));
        assertThat(Text.after(Instant.ofEpochSecond(10), 2)).isEqualTo(Instant.ofEpochSecond(12));
    }

    @Test
    void shouldSkipRemovedPositionsWhenScanning() {
        LiveIndex live = new LiveIndex(5);
        live.remove(1);
        live.remove(2);
        live.remove(4);

        assertThat(live.first(0)).isZero();
        assertThat(live.first(1)).isEqualTo(3);
        assertThat(live.first(4)).isEqualTo(5);
        live.remove(3);
        assertThat(live.first(1)).isEqualTo(5);
    }
}
