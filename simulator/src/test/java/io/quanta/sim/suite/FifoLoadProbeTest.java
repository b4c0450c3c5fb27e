package io.quanta.sim.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quanta.sim.Simulator;
import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.engine.EngineSettings;
import io.quanta.sim.engine.FidelityMode;
import io.quanta.sim.engine.ProgressListener;
import io.quanta.sim.testing.Traces;
import io.quanta.sim.topology.TopologyScheduler;
import io.quanta.sim.trace.Trace;
import io.quanta.sim.trace.TraceLoader;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Known answers of the counting strict-FIFO probe, and its agreement with the real fifo through the topology. */
class FifoLoadProbeTest {

    record Row(String name, int gpus, Trace trace, double expectedAverageDelay) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Row> rows() {
        return Stream.of(
                new Row("nothing waits when everything fits", 4, Traces.of("a,0,2,100", "b,10,2,50"), 0),
                new Row("a job waits for the GPUs of the one before it", 2, Traces.of("a,0,2,100", "b,10,1,50"), 45),
                new Row("strict order: a small job does not overtake a blocked head", 2,
                        Traces.of("a,0,1,100", "b,10,2,50", "c,20,1,10"), (0 + 90 + 130) / 3.0),
                new Row("a completion frees GPUs for an arrival at the same instant", 1,
                        Traces.of("a,0,1,100", "b,100,1,10"), 0),
                new Row("jobs larger than the cluster are left out", 2,
                        Traces.of("a,0,4,100", "b,5,2,50", "c,6,1,10"), (0 + 49) / 2.0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void shouldMeasureStrictFifoQueueingWhenGpusAreCounted(Row row) {
        assertThat(FifoLoadProbe.averageQueueingDelay(row.trace(), row.gpus()))
                .isCloseTo(row.expectedAverageDelay(), within(1e-9));
    }

    @Test
    void shouldGiveTheRatioToTheMeanServiceWhenAskedForIt() {
        Trace trace = Traces.of("a,0,2,100", "b,10,1,50");

        assertThat(FifoLoadProbe.queueingRatio(trace, 2)).isCloseTo(45 / 75.0, within(1e-12));
    }

    @Test
    void shouldAgreeWithTheRealFifoWhenTheTraceIsTheDevelopersSliceAt192Gpus() {
        Optional<Path> file = Traces.shared("philly_dev_slice_2000.csv");
        assumeTrue(file.isPresent(), "assumption: ../shared/traces/philly_dev_slice_2000.csv is absent; skipped");
        Trace slice = TraceLoader.load(file.get()).first(400);
        ClusterShape shape = ClusterShape.parse("1x4x8");
        double real = new Simulator(TopologyScheduler::create, EngineSettings.defaults(), System::nanoTime)
                .run(slice, shape, FidelityMode.TIRESIAS_COMPATIBLE, Map.of("policy", "fifo"), 1,
                        ProgressListener.NONE).summary().avgQueueingDelay();

        assertThat(real).as("the real fifo queues in this window").isGreaterThan(1_000);
        assertThat(FifoLoadProbe.averageQueueingDelay(slice, shape.totalGpus())).isCloseTo(real, within(0.01 * real));
    }
}
