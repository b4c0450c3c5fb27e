package io.quanta.sim.suite;

import io.quanta.sim.engine.FidelityMode;
import io.quanta.sim.trace.Trace;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * What the trace and the cluster size alone say about an input's average JCT, without a simulation.
 *
 * @param floor the trace's mean service ({@link SuiteInput#floorSeconds()}), seconds
 * @param bound {@link AverageJctBound}: no schedule averages less, seconds
 * @param ideal {@link IdealSchedule}'s average JCT, each job at its least spread placement's speed, seconds
 * @param capacityFactor the most service one GPU gives per second in the bound ({@link PackingGain#factor})
 */
public record InputBounds(double floor, double bound, double ideal, double capacityFactor) {

    /**
     * The figures of one input under {@code mode}: in the bound each job's work takes the GPU-seconds of its model
     * family's best pack ({@link PackingGain#gpuSecondsPerWork}, the input's seed, the default jobs per GPU), and
     * the bound and the ideal schedule give each job the duration of its least spread placement on the input's
     * cluster ({@link LeastSpread}: a gang larger than a server is slowed on every placement). The floor stays the
     * trace's mean service, as the gap closed is defined.
     */
    public static InputBounds of(SuiteInput input, FidelityMode mode) {
        int gpus = input.cluster().totalGpus();
        int perGpu = PackingGain.DEFAULT_JOBS_PER_GPU;
        Trace trace = LeastSpread.atBestPlacement(input.trace(), input.seed(), mode, input.cluster());
        double[] u = PackingGain.gpuSecondsPerWork(trace, input.seed(), mode, perGpu);
        double ideal = IdealSchedule.averageJct(trace, gpus);
        return new InputBounds(input.floorSeconds(), AverageJctBound.averageJct(trace, gpus, u, ideal), ideal,
                PackingGain.factor(mode, perGpu));
    }

    /** The figures of every input by id, in order, computed on up to {@code threads} threads. */
    public static Map<String, InputBounds> of(List<SuiteInput> inputs, FidelityMode mode, int threads) {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<InputBounds>> futures = new ArrayList<>();
            for (SuiteInput input : inputs) {
                futures.add(pool.submit(() -> of(input, mode)));
            }
            Map<String, InputBounds> out = new LinkedHashMap<>();
            for (int i = 0; i < inputs.size(); i++) {
                out.put(inputs.get(i).id(), futures.get(i).get());
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }
}
