package io.quanta.node.runner;

import static io.quanta.node.testing.Commands.profile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.node.model.ThroughputModel;
import io.quanta.node.testing.RecordingListener;
import io.quanta.schemas.GpuRef;
import io.quanta.schemas.ModelProfile;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class SimulatedJobRunnerTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final ModelProfile RESNET = profile("resnet50", 0.1, 0);
    private static final ModelProfile LSTM = profile("lstm", 0.0, 0);

    private final RecordingListener events = new RecordingListener();

    private static AttemptLaunch launch(String job, int attempt, ModelProfile p, long seconds, List<Integer> gpus,
                                        Optional<String> checkpoint) {
        return new AttemptLaunch(new AttemptId(job, attempt), gpus, List.of(), Map.of(), checkpoint, p,
                OptionalLong.of(seconds), List.of(), List.of());
    }

    private static AttemptLaunch launch(String job, ModelProfile p, long seconds) {
        return launch(job, 1, p, seconds, List.of(0), Optional.empty());
    }

    private static Instant at(double seconds) {
        return T0.plusNanos(Math.round(seconds * 1e9));
    }

    @Test
    void shouldCompleteAfterItsExpectedDurationWhenAloneOnItsGpu() {
        SimulatedJobRunner sim = new SimulatedJobRunner("n1", ThroughputModel.standard(), T0);
        sim.start(launch("j1", RESNET, 100), events);

        sim.advanceTo(at(99.999));
        assertThat(events.endOf(new AttemptId("j1", 1))).isEmpty();
        assertThat(sim.nextEventTime()).contains(at(100));

        sim.advanceTo(at(150));
        assertThat(events.events()).containsExactly(new RunnerEvent.Started(new AttemptId("j1", 1), T0),
                new RunnerEvent.Completed(new AttemptId("j1", 1), at(100)));
        assertThat(sim.nextEventTime()).isEmpty();
    }

    @Test
    void shouldSlowBothJobsWhenTwoLanguageModelsShareAGpu() {
        SimulatedJobRunner sim = new SimulatedJobRunner("n1", ThroughputModel.standard(), T0);
        sim.start(launch("a", LSTM, 10), events);
        sim.start(launch("b", LSTM, 100), events);

        assertThat(sim.speedOf(new AttemptId("a", 1))).hasValue(0.81);
        sim.advanceTo(at(1_000));

        // a finishes at 10 / 0.81 s; b then has 90 s left at full speed
        assertThat(events.endOf(new AttemptId("a", 1))).get().extracting(RunnerEvent::at).isEqualTo(at(12.346));
        assertThat(events.endOf(new AttemptId("b", 1))).get().extracting(RunnerEvent::at)
                .satisfies(t -> assertThat(Duration.between(at(102.346), t).abs()).isLessThan(Duration.ofMillis(2)));
    }

    @Test
    void shouldSlowASkewedJobWhenItsGangSpansRacks() {
        Map<String, String> racks = Map.of("n1", "r1", "n2", "r2");
        SimulatedJobRunner sim = new SimulatedJobRunner("n1", ThroughputModel.standard(), racks::get, 1.0, T0);
        AttemptLaunch spread = new AttemptLaunch(new AttemptId("vgg", 1), List.of(0), List.of(), Map.of(),
                Optional.empty(), profile("vgg16", 1.0, 0), OptionalLong.of(100),
                List.of(new GpuRef("n1", 0), new GpuRef("n2", 0)), List.of());

        sim.start(spread, events);

        assertThat(sim.speedOf(new AttemptId("vgg", 1))).hasValue(1 / (1 + 0.46 + 0.5));
        assertThat(sim.nextEventTime()).contains(at(196));
    }

    @Test
    void shouldCheckpointTheWorkDoneAndResumeFromItAfterTheSwitchCosts() {
        SimulatedJobRunner sim = new SimulatedJobRunner("n1", ThroughputModel.standard(), T0);
        sim.start(launch("j1", RESNET, 100), events);
        sim.advanceTo(at(40));
        sim.suspend(new AttemptId("j1", 1));
        sim.advanceTo(at(50));

        RunnerEvent.Suspended suspended = events.first(RunnerEvent.Suspended.class).orElseThrow();
        assertThat(suspended.at()).isEqualTo(at(41));
        assertThat(suspended.checkpointRef()).isEqualTo("sim:j1#1:work-ms=40000");

        sim.start(launch("j1", 2, RESNET, 100, List.of(0), Optional.of(suspended.checkpointRef())), events);
        sim.advanceTo(at(500));

        // resume cost 10 s (no model memory), then the remaining 60 s
        assertThat(events.endOf(new AttemptId("j1", 2))).get()
                .isEqualTo(new RunnerEvent.Completed(new AttemptId("j1", 2), at(120)));
    }

    @Test
    void shouldSuspendInstantlyWithoutCostsWhenTiresiasCompatible() {
        SimulatedJobRunner sim = new SimulatedJobRunner("n1", ThroughputModel.tiresiasCompatible(), T0);
        sim.start(launch("j1", RESNET, 100), events);
        sim.advanceTo(at(40));

        sim.suspend(new AttemptId("j1", 1));

        assertThat(events.endOf(new AttemptId("j1", 1))).contains(
                new RunnerEvent.Suspended(new AttemptId("j1", 1), at(40), "sim:j1#1:work-ms=40000"));
        sim.start(launch("j1", 2, RESNET, 100, List.of(0), Optional.of("sim:j1#1:work-ms=40000")), events);
        assertThat(sim.nextEventTime()).contains(at(100));
    }

    @Test
    void shouldFailAtOnceWhenKilled() {
        SimulatedJobRunner sim = new SimulatedJobRunner("n1", ThroughputModel.standard(), T0);
        sim.start(launch("j1", RESNET, 100), events);
        sim.advanceTo(at(5));

        sim.kill(new AttemptId("j1", 1));

        assertThat(events.endOf(new AttemptId("j1", 1))).get().isInstanceOf(RunnerEvent.Failed.class)
                .extracting(RunnerEvent::at).isEqualTo(at(5));
        assertThat(sim.nextEventTime()).isEmpty();
    }

    @Test
    void shouldFailWhenTheCommandHasNoExpectedDuration() {
        SimulatedJobRunner sim = new SimulatedJobRunner("n1", ThroughputModel.standard(), T0);
        AttemptLaunch noDuration = new AttemptLaunch(new AttemptId("j1", 1), List.of(0), List.of(), Map.of(),
                Optional.empty(), RESNET, OptionalLong.empty(), List.of(), List.of());

        sim.start(noDuration, events);

        assertThat(events.first(RunnerEvent.Failed.class)).get().extracting(RunnerEvent.Failed::message).asString()
                .contains("expectedDurationSeconds");
    }

    @Test
    void shouldCompressDurationsWhenATimeCompressionIsGiven() {
        SimulatedJobRunner sim = new SimulatedJobRunner("n1", ThroughputModel.standard(), n -> "r", 600, T0);

        sim.start(launch("j1", RESNET, 600), events);

        assertThat(sim.nextEventTime()).contains(at(1));
    }

    @Test
    void shouldReportEventsAtTheSameInstantInAttemptOrder() {
        SimulatedJobRunner sim = new SimulatedJobRunner("n1", ThroughputModel.tiresiasCompatible(), T0);
        sim.start(launch("b", 1, RESNET, 10, List.of(1), Optional.empty()), events);
        sim.start(launch("a", 1, RESNET, 10, List.of(0), Optional.empty()), events);

        sim.advanceTo(at(10));

        assertThat(events.events().subList(2, 4)).extracting(e -> e.attempt().jobId()).containsExactly("a", "b");
    }

    @Test
    void shouldRefuseToGoBackInTimeButCatchUpLeniently() {
        SimulatedJobRunner sim = new SimulatedJobRunner("n1", ThroughputModel.standard(), T0);
        sim.advanceTo(at(10));

        assertThatThrownBy(() -> sim.advanceTo(at(5))).isInstanceOf(IllegalArgumentException.class);
        sim.catchUpTo(at(5));
        assertThat(sim.now()).isEqualTo(at(10));
    }

    @Test
    void shouldCountMinibatchesAndGpuUsageWhenRunning() {
        SimulatedJobRunner sim = new SimulatedJobRunner("n1", ThroughputModel.standard(), T0);
        sim.start(launch("j1", 1, profile("resnet50", 0.1, 3_000), 100, List.of(0, 1), Optional.empty()), events);

        sim.advanceTo(at(10));

        assertThat(sim.progress()).singleElement().satisfies(p -> {
            assertThat(p.minibatchesDone()).isEqualTo(50);
            assertThat(p.gpuMemoryUsedMiB()).hasValue(3_000);
        });
        assertThat(sim.gpuUsage()).containsOnlyKeys(0, 1);
        assertThat(sim.gpuUsage().get(1).utilizationPercent()).isEqualTo(100);
    }

    @Test
    void shouldReportSimulatedAttemptsAsLostAfterARestart() {
        SimulatedJobRunner sim = new SimulatedJobRunner("n1", ThroughputModel.standard(), T0);

        sim.recover(new AttemptId("j1", 1), false, events);

        assertThat(events.first(RunnerEvent.Lost.class)).isPresent();
    }
}
