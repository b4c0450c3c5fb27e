package io.quanta.streams.cell;

import static io.quanta.streams.cell.CellSteps.heartbeat;
import static io.quanta.streams.cell.CellSteps.submission;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Every change to the cell's meta reaches the store: the value changes, so the flush writes it. */
class CellMetaChangeTest {

    private final CellSteps steps = new CellSteps();
    private final CellState cell = steps.cell;

    @Test
    void shouldMarkTheMetaForTheStoreWhenOnlyTheHeartbeatClockMoved() {
        steps.step(heartbeat("node-a", 8, 1_000), 1_000);
        steps.step(heartbeat("node-b", 8, 2_000), 2_000);
        steps.step(submission("job-1", 1), 9_000); // stream time 9 s

        // older than the stream time, newer than the heartbeat clock; node-a still sets the liveness deadline
        steps.step(heartbeat("node-b", 8, 3_000), 3_000);

        assertThat(cell.meta().heartbeatTimeMs()).isEqualTo(3_000);
        assertThat(cell.meta().timeMs()).isEqualTo(9_000);
        assertThat(cell.metaChanged).as("the moved heartbeat clock is flushed").isTrue();
    }

    @Test
    void shouldNotMarkTheMetaWhenNothingInItChanged() {
        steps.step(heartbeat("node-a", 8, 1_000), 1_000);
        cell.clearChanges();

        cell.changeMeta(m -> m.timeMs = 1_000);

        assertThat(cell.metaChanged).isFalse();
    }
}
