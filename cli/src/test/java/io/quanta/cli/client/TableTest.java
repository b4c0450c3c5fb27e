package io.quanta.cli.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TableTest {

    @Test
    void shouldAlignColumnsAndDashEmptyCellsWhenRendering() {
        String text = new Table("JOB", "STATE", "REASON").row("job-1", "RUNNING", "").row("j", "QUEUED", "no GPUs")
                .render();

        assertThat(text).isEqualTo("""
                JOB     STATE     REASON
                job-1   RUNNING   -
                j       QUEUED    no GPUs
                """);
    }

    @Test
    void shouldRefuseRowWhenCellCountDiffers() {
        assertThatThrownBy(() -> new Table("A", "B").row("x")).hasMessageContaining("1 cells");
    }

    @Test
    void shouldPrintLargestTwoUnitsWhenFormattingDurations() {
        assertThat(Durations.human(Duration.ofSeconds(45))).isEqualTo("45s");
        assertThat(Durations.human(Duration.ofSeconds(90))).isEqualTo("1m30s");
        assertThat(Durations.human(Duration.ofMinutes(200))).isEqualTo("3h20m");
        assertThat(Durations.human(Duration.ofHours(52))).isEqualTo("2d4h");
    }
}
