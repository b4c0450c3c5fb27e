package io.quanta.core.bench;

import io.quanta.core.config.PolicyConfig;
import io.quanta.core.decision.Decisions;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.policy.PolicyRegistry;
import io.quanta.core.policy.SchedulingPolicy;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One full decision pass ({@code decide}) and one {@code nextWakeUp} per policy on a saturated cell of {@code gpus}
 * GPUs (8 per node) with {@code gpus / 2} jobs, half running and half queued. See {@link BenchCells} for the shapes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = {"-Xms1g", "-Xmx1g"})
public class SchedulingPassBench {

    @Param({"tiresias-las", "tiresias-gittins", "gandiva", "quanta", "fifo", "srtf-oracle"})
    public String policy;

    @Param({"10000"})
    public int gpus;

    @Param({"STEADY", "TYPICAL", "BURST"})
    public String shape;

    private SchedulingPolicy scheduler;
    private ClusterSnapshot snapshot;

    @Setup(Level.Trial)
    public void setUp() {
        scheduler = PolicyRegistry.builtIn().create(PolicyConfig.defaults(policy));
        snapshot = BenchCells.cell(gpus, BenchCells.Shape.valueOf(shape), 42);
    }

    @Benchmark
    public Decisions decide() {
        return scheduler.decide(snapshot);
    }

    @Benchmark
    public Optional<Instant> nextWakeUp() {
        return scheduler.nextWakeUp(snapshot);
    }
}
