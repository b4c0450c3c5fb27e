package io.quanta.sim.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.quanta.sim.Simulator;
import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.engine.EngineSettings;
import io.quanta.sim.engine.FidelityMode;
import io.quanta.sim.engine.ProgressListener;
import io.quanta.sim.engine.SimulationRun;
import io.quanta.sim.metrics.JobOutcome;
import io.quanta.sim.profile.ProfileAssigner;
import io.quanta.sim.testing.Traces;
import io.quanta.sim.topology.TopologyScheduler;
import io.quanta.sim.trace.Trace;
import io.quanta.sim.trace.TraceJob;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The least spread placement's slowdown, and the bound that counts it, against the real simulation. */
class LeastSpreadTest {

    private static final ProfileAssigner PROFILES = ProfileAssigner.standard(1);

    private static double skew(String jobId) {
        return PROFILES.kindOf(jobId).skew();
    }

    /** The first job id {@code j<k>} whose model (seed 1) is skewed, so that spreading slows it. */
    private static String skewedJob() {
        return IntStream.range(0, 1_000).mapToObj(k -> "j" + k).filter(id -> skew(id) > 0.5).findFirst().orElseThrow();
    }

    @Test
    void shouldSlowOnlyTheGangsLargerThanAServerByTheirLeastSpreadPlacement() {
        // 2 racks of 2 servers of 8 GPUs: 16 GPUs fit on 2 servers of one rack, 24 need 3 servers over 2 racks
        Trace trace = Traces.of("a,0,16,1000", "b,0,8,1000", "c,5,24,1000", "d,9,1,1000");

        Trace best = LeastSpread.atBestPlacement(trace, 1, FidelityMode.REALISTIC, ClusterShape.parse("2x2x8"));

        assertThat(best.jobs()).extracting(TraceJob::durationSeconds).containsExactly(
                (long) Math.floor(1000 * (1 + skew("a") * 0.46)), 1000L,
                (long) Math.floor(1000 * (1 + skew("c") * (0.46 * Math.log(3) / Math.log(2) + 0.5))), 1000L);
        assertThat(best.jobs()).extracting(TraceJob::submitSeconds).containsExactly(0L, 0L, 5L, 9L);
        assertThat(best.jobs()).extracting(TraceJob::numGpus).containsExactly(16, 8, 24, 1);
    }

    @Test
    void shouldLeaveTheTraceAsItIsWhenNoPlacementSlowsAJob() {
        Trace trace = Traces.of("a,0,16,1000", "b,0,8,1000");

        assertThat(LeastSpread.atBestPlacement(trace, 1, FidelityMode.TIRESIAS_COMPATIBLE,
                ClusterShape.parse("1x2x8"))).isSameAs(trace);
        assertThat(LeastSpread.atBestPlacement(Traces.of("b,0,8,1000"), 1, FidelityMode.REALISTIC,
                ClusterShape.parse("1x2x8")).jobs().get(0).durationSeconds()).isEqualTo(1000L);
    }

    @Test
    void shouldBoundTheRealSimulationAndMeetItForASkewedGangAloneOnTwoServers() {
        String big = skewedJob();
        ClusterShape cluster = ClusterShape.parse("1x2x8");
        SuiteInput alone = new SuiteInput("alone", Half.CHECK, Traces.of(big + ",0,16,10000"), cluster, "moderate",
                0.0, 1);

        SimulationRun run = simulate(alone, "tiresias-las");
        double jct = run.outcomes().get(0).jctSeconds().orElseThrow();
        InputBounds bounds = InputBounds.of(alone, FidelityMode.REALISTIC);

        // the job runs spread over both servers, slower than its duration: the old bound (its duration) was 10,000 s
        assertThat(jct).isCloseTo(10_000 * (1 + skew(big) * 0.46), within(1.0));
        assertThat(bounds.bound()).isLessThanOrEqualTo(jct).isCloseTo(jct, within(1.0));
        assertThat(bounds.ideal()).isCloseTo(jct, within(1.0));
        assertThat(bounds.floor()).isEqualTo(10_000.0);
    }

    @Test
    void shouldStayBelowEveryPolicysAverageWhenBigGangsShareTheClusterWithSmallJobs() {
        String big = skewedJob();
        ClusterShape cluster = ClusterShape.parse("1x2x8");
        SuiteInput input = new SuiteInput("mixed", Half.CHECK, Traces.of(big + ",0,16,4000", "s1,10,1,500",
                "s2,20,4,800", "s3,30,8,1200", "s4,3000,2,300"), cluster, "heavy", 2.0, 1);
        InputBounds bounds = InputBounds.of(input, FidelityMode.REALISTIC);

        for (String policy : new String[] {"fifo", "tiresias-las", "quanta"}) {
            SimulationRun run = simulate(input, policy);
            double average = run.outcomes().stream().mapToDouble(o -> o.jctSeconds().orElseThrow()).average()
                    .orElseThrow();
            assertThat(run.outcomes()).allMatch(JobOutcome::finished);
            assertThat(bounds.bound()).as(policy).isLessThanOrEqualTo(average);
        }
        assertThat(bounds.bound()).isGreaterThan(input.floorSeconds());
    }

    private static SimulationRun simulate(SuiteInput input, String policy) {
        return new Simulator(TopologyScheduler::create, EngineSettings.defaults(), System::nanoTime)
                .run(input.trace(), input.cluster(), FidelityMode.REALISTIC, Map.of("policy", policy), input.seed(),
                        ProgressListener.NONE);
    }
}
