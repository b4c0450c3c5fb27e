package io.quanta.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.node.runner.AttemptId;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TelemetryWindowsTest {

    private static final Instant T0 = EngineSettings.DEFAULT_ORIGIN;
    private static final AttemptId A = new AttemptId("a", 1);

    private static Instant at(double seconds) {
        return T0.plusMillis(Math.round(seconds * 1_000));
    }

    /** Every report up to {@code until}, as seconds=speed/window ms, waking at each due window end. */
    private static List<String> drain(TelemetryWindows windows, double until) {
        List<String> out = new ArrayList<>();
        while (windows.nextDue().isPresent() && !windows.nextDue().get().isAfter(at(until))) {
            Instant end = windows.nextDue().get();
            for (TelemetryWindows.Report r : windows.reportsDue(end)) {
                out.add(Duration.between(T0, end).toSeconds() + "=" + r.speed() + "/" + r.window().toMillis());
            }
        }
        return out;
    }

    @Test
    void shouldReportThePartWindowAfterAStartThenTheMixedWindowOfAChangeThenTheNewSpeed() {
        TelemetryWindows windows = new TelemetryWindows(T0, Duration.ofSeconds(10));
        windows.observe(A, 1.0, at(3));
        assertThat(drain(windows, 12)).containsExactly("10=1.0/7000");

        windows.observe(A, 0.5, at(15));
        windows.observe(A, 0.5, at(17)); // the same speed again is no change

        // [10, 20]: 5 s at 1.0 and 5 s at 0.5; [20, 30]: 0.5 alone; nothing after, though the attempt runs on
        assertThat(drain(windows, 100)).containsExactly("20=0.75/10000", "30=0.5/10000");
        assertThat(windows.nextDue()).isEmpty();
    }

    @Test
    void shouldReportNothingMoreForAnAttemptThatEnded() {
        TelemetryWindows windows = new TelemetryWindows(T0, Duration.ofSeconds(10));
        windows.observe(A, 1.0, at(3));
        windows.observe(new AttemptId("b", 1), 1.0, at(25));

        windows.forget(A);

        assertThat(windows.nextDue()).contains(at(30));
        assertThat(windows.dueCount(at(40))).isEqualTo(2);
        assertThat(drain(windows, 100)).containsExactly("30=1.0/5000");
    }

    @Test
    void shouldRefuseAWindowOfZero() {
        assertThatThrownBy(() -> new TelemetryWindows(T0, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be > 0");
    }
}
