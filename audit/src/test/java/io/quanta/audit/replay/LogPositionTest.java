package io.quanta.audit.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LogPositionTest {

    @Test
    void shouldReadDigitsAsAnOffsetAndIsoTextAsAnInstant() {
        assertThat(LogPosition.parse("1234")).isEqualTo(new LogPosition.Offset(1234));
        assertThat(LogPosition.parse("2017-10-27T07:09:00Z"))
                .isEqualTo(new LogPosition.Time(Instant.parse("2017-10-27T07:09:00Z")));
    }

    @Test
    void shouldNameBothFormsWhenTheTextIsNeither() {
        assertThatThrownBy(() -> LogPosition.parse("yesterday"))
                .hasMessageContaining("'yesterday'").hasMessageContaining("digits").hasMessageContaining("ISO-8601");
    }

    @Test
    void shouldIncludeTheBoundsWhenAWindowHasBothEnds() {
        ReplayWindow window = new ReplayWindow(Optional.of(new LogPosition.Offset(10)),
                Optional.of(new LogPosition.Offset(20)));

        assertThat(window.includes(10, 0)).isTrue();
        assertThat(window.includes(20, 0)).isTrue();
        assertThat(window.includes(9, 0)).isFalse();
        assertThat(window.includes(21, 0)).isFalse();
        assertThat(window.pastEnd(21, 0)).isTrue();
        assertThat(window.pastEnd(20, 0)).isFalse();
    }

    @Test
    void shouldCompareStreamTimesWhenTheWindowIsGivenInTime() {
        ReplayWindow window = new ReplayWindow(Optional.of(new LogPosition.Time(Instant.ofEpochMilli(1000))),
                Optional.empty());

        assertThat(window.includes(0, 999)).isFalse();
        assertThat(window.includes(0, 1000)).isTrue();
        assertThat(window.pastEnd(Long.MAX_VALUE, Long.MAX_VALUE)).isFalse();
    }
}
