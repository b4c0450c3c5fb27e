package io.quanta.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.schemas.GpuRef;
import io.quanta.schemas.JobEventType;
import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.metrics.JobOutcome;
import io.quanta.sim.profile.ModelKind;
import io.quanta.sim.profile.ProfileAssigner;
import io.quanta.sim.testing.PlannedScheduler;
import io.quanta.sim.trace.Trace;
import io.quanta.sim.trace.TraceLoader;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SimulationEngineTest {

    private static final ClusterShape ONE_RACK = ClusterShape.parse("1x2x4");

    private static Trace trace(String rows) {
        return TraceLoader.parse("t", "job_id,submit_time_s,num_gpus,duration_s,status,user,virtual_cluster\n" + rows);
    }

    private static SimulationRun run(Trace trace, FidelityMode mode, PlannedScheduler scheduler,
                                     EngineSettings settings, ProfileAssigner profiles) {
        return new SimulationEngine(trace, ONE_RACK, mode, profiles, scheduler, settings, ProgressListener.NONE,
                System::nanoTime).run("planned");
    }

    private static SimulationRun run(Trace trace, FidelityMode mode, PlannedScheduler scheduler) {
        return run(trace, mode, scheduler, EngineSettings.defaults(), ProfileAssigner.standard(1));
    }

    private static GpuRef gpu(String node, int index) {
        return new GpuRef(node, index);
    }

    @Test
    void shouldFinishJobsAfterTheirDurationWhenStartedAtArrivalInTiresiasMode() {
        PlannedScheduler scheduler = new PlannedScheduler(Map.of(
                "a", List.of(gpu("r00-s000", 0)),
                "b", List.of(gpu("r00-s000", 1), gpu("r00-s001", 0))));
        SimulationRun run = run(trace("a,0,1,100,UNKNOWN,,vc1\nb,50,2,30,UNKNOWN,,vc2\n"),
                FidelityMode.TIRESIAS_COMPATIBLE, scheduler);

        JobOutcome a = run.outcomes().get(0);
        JobOutcome b = run.outcomes().get(1);
        assertThat(a.jctSeconds()).hasValue(100.0);
        assertThat(a.queueingDelaySeconds()).hasValue(0.0);
        assertThat(a.tenant()).isEqualTo("vc1");
        assertThat(b.firstStartSeconds()).hasValue(50.0);
        assertThat(b.finishSeconds()).hasValue(80.0);
        assertThat(b.serversUsed()).isEqualTo(2);
        assertThat(run.stats().stopReason()).isEqualTo("all jobs done");
        assertThat(run.summary().makespan()).isEqualTo(100.0);
    }

    @Test
    void shouldSubmitWithTraceDurationProfileAndArrivalTime() {
        PlannedScheduler scheduler = new PlannedScheduler(Map.of("a", List.of(gpu("r00-s000", 0))));
        run(trace("a,7,1,100,UNKNOWN,,vc1\n"), FidelityMode.REALISTIC, scheduler);

        assertThat(scheduler.submissions).singleElement().satisfies(s -> {
            assertThat(s.getExpectedDurationSeconds()).isEqualTo(100L);
            assertThat(s.getSubmittedAt()).isEqualTo(EngineSettings.DEFAULT_ORIGIN.plusSeconds(7));
            assertThat(s.getProfile().getModelName())
                    .isEqualTo(ProfileAssigner.standard(1).kindOf("a").modelName());
            assertThat(s.getTenant()).isEqualTo("vc1");
        });
    }

    @Test
    void shouldSlowASkewedJobSpreadOverTwoServersOnlyInRealisticMode() {
        ProfileAssigner allVgg = ProfileAssigner.withMix(1, Map.of(ModelKind.VGG16, 1.0));
        Map<String, List<GpuRef>> plan = Map.of("v", List.of(gpu("r00-s000", 0), gpu("r00-s001", 0)));
        Trace trace = trace("v,0,2,1000,UNKNOWN,,vc\n");

        SimulationRun realistic = run(trace, FidelityMode.REALISTIC, new PlannedScheduler(plan),
                EngineSettings.defaults(), allVgg);
        SimulationRun compatible = run(trace, FidelityMode.TIRESIAS_COMPATIBLE, new PlannedScheduler(plan),
                EngineSettings.defaults(), allVgg);

        // locality = 1 / (1 + 0.74 * 0.46 * log2(2)) = 0.746: 1000 s of work take 1340.4 s
        assertThat(realistic.outcomes().get(0).jctSeconds().getAsDouble()).isCloseTo(1340.4,
                org.assertj.core.data.Offset.offset(0.5));
        assertThat(compatible.outcomes().get(0).jctSeconds()).hasValue(1000.0);
    }

    @Test
    void shouldReportTelemetryOncePerAttemptFromTheLeadNodeWhenThroughputIsConstant() {
        PlannedScheduler scheduler = new PlannedScheduler(Map.of(
                "a", List.of(gpu("r00-s000", 0), gpu("r00-s001", 0)),
                "b", List.of(gpu("r00-s000", 1))));
        run(trace("a,0,2,100,UNKNOWN,,vc\nb,10,1,100,UNKNOWN,,vc\n"), FidelityMode.TIRESIAS_COMPATIBLE, scheduler);

        assertThat(scheduler.telemetry).extracting(t -> t.getJobId() + "@" + t.getNodeId())
                .containsExactly("a@r00-s000", "b@r00-s000");
        assertThat(scheduler.telemetry.get(0).getMinibatchesPerSecond()).isGreaterThan(0);
    }

    /**
     * Two LSTM jobs on one GPU: a alone from 0 s, b packed beside it from 13 s (0.81 each, Gandiva's pair); each
     * telemetry record as job@second=minibatches/s/window ms (minibatches/s = speed / 0.1 s).
     */
    private static List<String> packedLstmTelemetry(EngineSettings settings) {
        PlannedScheduler scheduler = new PlannedScheduler(Map.of(
                "a", List.of(gpu("r00-s000", 0)),
                "b", List.of(gpu("r00-s000", 0))));
        run(trace("a,0,1,1000,UNKNOWN,,vc\nb,13,1,1000,UNKNOWN,,vc\n"), FidelityMode.REALISTIC, scheduler, settings,
                ProfileAssigner.withMix(1, Map.of(ModelKind.LSTM_LM, 1.0)));
        return scheduler.telemetry.stream().map(t -> t.getJobId() + "@"
                + (t.getReportedAt().getEpochSecond() - EngineSettings.DEFAULT_ORIGIN.getEpochSecond()) + "="
                + String.format(java.util.Locale.ROOT, "%.2f", t.getMinibatchesPerSecond()) + "/"
                + t.getWindowMillis()).toList();
    }

    @Test
    void shouldReportWindowAveragesAtTheWindowEndsAfterEachChangeWithATelemetryWindow() {
        List<String> telemetry = packedLstmTelemetry(EngineSettings.defaults()
                .withTelemetryWindow(Duration.ofSeconds(10)));

        // a's window [10, 20] holds 3 s alone and 7 s packed: 8.67; the windows that would repeat the value the
        // scheduler has are not sent, and nothing is reported before a window ends; a finishes at
        // 13 + 987 / 0.81 = 1,231.5 s, so b's window [1230, 1240] is mostly alone (9.71), and b finishes at
        // 1,244.5 s, before its next window ends
        assertThat(telemetry).containsExactly("a@10=10.00/10000", "a@20=8.67/10000", "b@20=8.10/7000",
                "a@30=8.10/10000", "b@1240=9.71/10000");
    }

    @Test
    void shouldReportEveryChangeAtOnceWithoutATelemetryWindow() {
        assertThat(packedLstmTelemetry(EngineSettings.defaults()))
                .startsWith("a@0=10.00/0", "a@13=8.10/13000", "b@13=8.10/0");
    }

    @Test
    void shouldFeedEveryNodeEventBackWithItsVirtualTimestamp() {
        PlannedScheduler scheduler = new PlannedScheduler(Map.of("a", List.of(gpu("r00-s000", 0), gpu("r00-s001", 0))));
        run(trace("a,5,2,60,UNKNOWN,,vc\n"), FidelityMode.TIRESIAS_COMPATIBLE, scheduler);

        assertThat(scheduler.events).extracting(e -> e.getType() + "@" + e.getNodeId() + "@"
                        + (e.getAt().getEpochSecond() - EngineSettings.DEFAULT_ORIGIN.getEpochSecond()))
                .containsExactly("STARTED@r00-s000@5", "STARTED@r00-s001@5", "COMPLETED@r00-s000@65",
                        "COMPLETED@r00-s001@65");
        assertThat(scheduler.events).allMatch(e -> e.getType() != JobEventType.COMMAND_IGNORED);
    }

    @Test
    void shouldHeartbeatEveryNodeAtStartAndThenOncePerIntervalWhileWorkRemains() {
        PlannedScheduler scheduler = new PlannedScheduler(Map.of("a", List.of(gpu("r00-s000", 0))));
        EngineSettings settings = EngineSettings.defaults().withHeartbeatInterval(Duration.ofSeconds(100));
        run(trace("a,0,1,250,UNKNOWN,,vc\n"), FidelityMode.TIRESIAS_COMPATIBLE, scheduler, settings,
                ProfileAssigner.standard(1));

        // 2 nodes at 0, 100 and 200; the job ends at 250
        assertThat(scheduler.heartbeats).extracting(h -> h.getNodeId() + "@"
                        + (h.getSentAt().getEpochSecond() - EngineSettings.DEFAULT_ORIGIN.getEpochSecond()))
                .containsExactly("r00-s000@0", "r00-s001@0", "r00-s000@100", "r00-s001@100", "r00-s000@200",
                        "r00-s001@200");
        assertThat(scheduler.heartbeats.get(2).getRunning()).singleElement()
                .satisfies(r -> assertThat(r.getJobId()).isEqualTo("a"));
    }

    @Test
    void shouldTickTheSchedulerAtItsWakeUpWithOneHeartbeat() {
        java.time.Instant wake = EngineSettings.DEFAULT_ORIGIN.plusSeconds(30);
        PlannedScheduler scheduler = new PlannedScheduler(Map.of("a", List.of(gpu("r00-s000", 0))),
                Optional.of(wake));
        SimulationRun run = run(trace("a,0,1,100,UNKNOWN,,vc\n"), FidelityMode.TIRESIAS_COMPATIBLE, scheduler);

        assertThat(scheduler.heartbeats).filteredOn(h -> h.getSentAt().equals(wake)).hasSize(1);
        assertThat(run.stats().inputs().ticks()).isEqualTo(1);
        assertThat(run.stats().inputs().total()).isEqualTo(run.stats().inputRecords());
    }

    @Test
    void shouldStopAndReportUnfinishedJobsWhenTheSchedulerNeverStartsThem() {
        PlannedScheduler scheduler = new PlannedScheduler(Map.of("a", List.of(gpu("r00-s000", 0))));
        SimulationRun run = run(trace("a,0,1,100,UNKNOWN,,vc\nnever,1,1,100,UNKNOWN,,vc\n"),
                FidelityMode.TIRESIAS_COMPATIBLE, scheduler);

        assertThat(run.summary().unfinished()).isEqualTo(1);
        assertThat(run.outcomes().get(1).finalState()).isEqualTo("QUEUED");
        assertThat(run.outcomes().get(1).firstStartSeconds()).isEmpty();
        assertThat(run.stats().stopReason()).startsWith("stalled");
    }

    @Test
    void shouldIntegrateAllocatedGpuSecondsOverVirtualTime() {
        PlannedScheduler scheduler = new PlannedScheduler(Map.of(
                "a", List.of(gpu("r00-s000", 0), gpu("r00-s000", 1)),
                "b", List.of(gpu("r00-s001", 0))));
        SimulationRun run = run(trace("a,0,2,100,UNKNOWN,,vc\nb,0,1,200,UNKNOWN,,vc\n"),
                FidelityMode.TIRESIAS_COMPATIBLE, scheduler);

        assertThat(run.stats().allocatedGpuSeconds()).isEqualTo(2 * 100 + 200.0);
        // 400 GPU-seconds used of 8 GPUs x 200 s
        assertThat(run.summary().utilisationAllocated()).isEqualTo(0.25);
        assertThat(run.summary().utilisationUseful()).isEqualTo(0.25);
    }
}
