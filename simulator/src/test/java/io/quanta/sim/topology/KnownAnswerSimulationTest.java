package io.quanta.sim.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.sim.Simulator;
import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.engine.EngineSettings;
import io.quanta.sim.engine.FidelityMode;
import io.quanta.sim.engine.ProgressListener;
import io.quanta.sim.engine.SimulationRun;
import io.quanta.sim.metrics.JobOutcome;
import io.quanta.sim.testing.Traces;
import io.quanta.sim.trace.Trace;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Small traces with answers worked out by hand, through the real topology and simulated nodes. */
class KnownAnswerSimulationTest {

    private static final ClusterShape ONE_GPU = ClusterShape.parse("1x1x1");

    private static SimulationRun simulate(Trace trace, Map<String, String> policy) {
        return new Simulator(TopologyScheduler::create, EngineSettings.defaults(), System::nanoTime)
                .run(trace, ONE_GPU, FidelityMode.TIRESIAS_COMPATIBLE, policy, 1, ProgressListener.NONE);
    }

    private static Map<String, JobOutcome> byId(SimulationRun run) {
        Map<String, JobOutcome> out = new TreeMap<>();
        run.outcomes().forEach(o -> out.put(o.jobId(), o));
        return out;
    }

    @Test
    void shouldRunTwoJobsOneAfterTheOtherWhenFifoHasOneGpu() {
        SimulationRun run = simulate(Traces.of("a,0,1,100", "b,10,1,50"), Map.of("policy", "fifo"));

        Map<String, JobOutcome> jobs = byId(run);
        assertThat(jobs.get("a").finishSeconds()).hasValue(100.0);
        assertThat(jobs.get("b").firstStartSeconds()).hasValue(100.0);
        assertThat(jobs.get("b").finishSeconds()).hasValue(150.0);
        assertThat(jobs.get("b").queueingDelaySeconds()).hasValue(90.0);
        assertThat(run.summary().avgJct()).isEqualTo((100 + 140) / 2.0);
        assertThat(run.summary().preemptionsPerJob()).isZero();
        assertThat(run.summary().utilisationAllocated()).isEqualTo(1.0);
    }

    @Test
    void shouldPreemptDemotedJobsAndServeQueuesInLasOrderWhenTiresiasLasRuns() {
        // one queue threshold at 100 GPU-s: a is demoted at 100 but runs on alone; b preempts a at 150 (a has 150 s
        // left); c waits for b (same queue) until b is demoted at 250 (200 s left), then runs to 300; queue 1 then
        // resumes a (older) to 450 before b to 650
        SimulationRun run = simulate(Traces.of("a,0,1,300", "b,150,1,300", "c,160,1,50"),
                Map.of("policy", "tiresias-las", "tiresias.thresholds", "100"));

        Map<String, JobOutcome> jobs = byId(run);
        assertThat(jobs.get("c").finishSeconds()).hasValue(300.0);
        assertThat(jobs.get("a").finishSeconds()).hasValue(450.0);
        assertThat(jobs.get("b").finishSeconds()).hasValue(650.0);
        assertThat(jobs.get("a").preemptions()).isEqualTo(1);
        assertThat(jobs.get("b").preemptions()).isEqualTo(1);
        assertThat(jobs.get("c").preemptions()).isZero();
    }

    @Test
    void shouldRunShortestRemainingFirstWhenTheOracleKnowsDurations() {
        SimulationRun run = simulate(Traces.of("a,0,1,500", "b,10,1,100", "c,10,1,50", "d,10,1,200"),
                Map.of("policy", "srtf-oracle"));

        Map<String, JobOutcome> jobs = byId(run);
        assertThat(jobs.get("c").finishSeconds()).hasValue(60.0);
        assertThat(jobs.get("b").finishSeconds()).hasValue(160.0);
        assertThat(jobs.get("d").finishSeconds()).hasValue(360.0);
        assertThat(jobs.get("a").finishSeconds()).hasValue(850.0);
        assertThat(jobs.get("a").preemptions()).isEqualTo(1);
    }

    @Test
    void shouldChargeSwitchCostsOnlyInRealisticMode() {
        Trace trace = Traces.of("a,0,1,300", "b,150,1,300", "c,160,1,50");
        Map<String, String> las = Map.of("policy", "tiresias-las", "tiresias.thresholds", "100");
        SimulationRun realistic = new Simulator(TopologyScheduler::create, EngineSettings.defaults(),
                System::nanoTime).run(trace, ONE_GPU, FidelityMode.REALISTIC, las, 1, ProgressListener.NONE);

        assertThat(realistic.summary().unfinished()).isZero();
        assertThat(realistic.summary().makespan()).isGreaterThan(650.0);
    }
}
