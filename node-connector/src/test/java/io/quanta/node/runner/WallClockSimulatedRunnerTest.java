package io.quanta.node.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.embedded.Await;
import io.quanta.node.model.ThroughputModel;
import io.quanta.node.testing.Commands;
import io.quanta.node.testing.RecordingListener;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class WallClockSimulatedRunnerTest {

    @Test
    void shouldCompleteACompressedJobOnRealTimeWithoutBeingAdvancedByHand() {
        Clock clock = Clock.systemUTC();
        SimulatedJobRunner sim = new SimulatedJobRunner("n1", ThroughputModel.standard(), n -> "r", 3_600,
                clock.instant());
        RecordingListener events = new RecordingListener();
        AttemptId id = new AttemptId("hour-long", 1);
        try (WallClockSimulatedRunner live = new WallClockSimulatedRunner(sim, clock)) {
            live.start(new AttemptLaunch(id, List.of(0), List.of(), Map.of(), Optional.empty(),
                    Commands.profile("resnet50", 0.1, 0), OptionalLong.of(3_600), List.of(), List.of()), events);

            Await.until("the one-hour job compressed to one second completes", Duration.ofSeconds(20),
                    () -> events.endOf(id).isPresent());
        }

        assertThat(events.endOf(id)).get().isInstanceOf(RunnerEvent.Completed.class);
        assertThat(events.events()).hasSize(2);
    }
}
