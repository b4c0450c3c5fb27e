package io.quanta.sim.suite;

import io.quanta.core.config.PolicyConfigKeys;
import io.quanta.node.model.InterferenceTable;
import io.quanta.node.model.ModelFamily;
import io.quanta.sim.engine.FidelityMode;
import io.quanta.sim.profile.ProfileAssigner;
import io.quanta.sim.trace.Trace;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The most full-speed service one GPU can give per second under a model, when it holds at most {@code K} jobs at
 * once, over all packs or over the packs that hold a given model family: what lets {@link AverageJctBound} stay a
 * lower bound when packing gains. A unit of work of a job of family {@code f} then takes at least
 * {@code 1 / familyFactor(f)} GPU-seconds: on a GPU holding the pack {@code P}, the jobs' work per second, each
 * divided by its family's factor, sums to at most {@code (sum over i in P of speed_i) / packSpeed(P) <= 1}, since every
 * family of {@code P} has a factor of at least {@code packSpeed(P)}.
 * <p>A job progresses at {@code speed = locality x interference} of its full speed ({@code ThroughputModel}), with
 * {@code locality <= 1} and {@code interference} the product over its partners of {@code 1 - slowdown(self,
 * partner)}. The jobs on one GPU therefore give together at most {@code sum over i of product over j != i of (1 -
 * slowdown(f_i, f_j))}, maximised here over every multiset of at most {@code K} model families of the model's
 * {@link InterferenceTable}. Under {@code realistic} with {@code K = 2} that is two language models at 0.81 each, 1.62
 * ({@code InterferenceTable.gandiva()}); by family, a language model 1.62, ResNet 1.5 (unharmed by a language model
 * that runs at half speed beside it), any other family 1. Under {@code realistic-no-pack-gain} every packed job runs
 * at half speed, so 1.0; under {@code tiresias-compatible} a packed job loses nothing, so {@code K}.
 * <p>This holds when every job sharing a GPU with another shares all its GPUs with the same jobs, as packs are made
 * (a job joins a running job of the same size on exactly its GPUs: {@code Packer}). The simulator runs a gang as one
 * piece per server and the job finishes with its first piece ({@code SimulatedJobRunner}, {@code JobTransitions}), so
 * a gang packed on only some of its GPUs could count a lone piece's speed for all of them; for such schedules only
 * {@code K} itself is safe (every progressing job runs at most at full speed).
 */
public final class PackingGain {

    /** The default of {@code placement.max-jobs-per-gpu}: the most jobs a policy packs on one GPU. */
    public static final int DEFAULT_JOBS_PER_GPU =
            PolicyConfigKeys.MAX_JOBS_PER_GPU.parse(PolicyConfigKeys.MAX_JOBS_PER_GPU.defaultValue());

    private PackingGain() {
    }

    /** The most service per second of one GPU under {@code mode} with at most {@code jobsPerGpu} jobs, {@code >= 1}. */
    public static double factor(FidelityMode mode, int jobsPerGpu) {
        // every pack holds some family, so the best pack is the best of each family's best
        double most = 1;
        for (ModelFamily family : ModelFamily.values()) {
            most = Math.max(most, familyFactor(mode, jobsPerGpu, family));
        }
        return most;
    }

    /**
     * The most service one GPU gives per second under {@code mode} in a pack of at most {@code jobsPerGpu} jobs that
     * holds a job of {@code family}, {@code >= 1} (a job alone gives 1).
     */
    public static double familyFactor(FidelityMode mode, int jobsPerGpu, ModelFamily family) {
        if (jobsPerGpu < 1) {
            throw new IllegalArgumentException("jobs per GPU must be >= 1, got " + jobsPerGpu);
        }
        if (mode.throughputModel().isTiresiasCompatible()) {
            return jobsPerGpu;
        }
        return best(mode.parameters().interference(), new ArrayList<>(List.of(family)), 0, jobsPerGpu - 1);
    }

    /**
     * For each job of {@code trace} (by index), the least GPU-seconds a unit of its work takes under {@code mode}:
     * {@code 1 / familyFactor} of the model family the simulator gives it with {@code seed} ({@link ProfileAssigner}).
     */
    public static double[] gpuSecondsPerWork(Trace trace, long seed, FidelityMode mode, int jobsPerGpu) {
        ProfileAssigner profiles = ProfileAssigner.standard(seed);
        Map<ModelFamily, Double> byFamily = new EnumMap<>(ModelFamily.class);
        double[] out = new double[trace.size()];
        for (int j = 0; j < out.length; j++) {
            ModelFamily family = ModelFamily.of(profiles.kindOf(trace.jobs().get(j).jobId()).modelName());
            out[j] = 1 / byFamily.computeIfAbsent(family, f -> familyFactor(mode, jobsPerGpu, f));
        }
        return out;
    }

    /** The service the jobs of {@code families}, packed on one GPU, give together per second (locality aside). */
    static double packSpeed(InterferenceTable table, List<ModelFamily> families) {
        double sum = 0;
        for (int i = 0; i < families.size(); i++) {
            double speed = 1;
            for (int j = 0; j < families.size(); j++) {
                if (j != i) {
                    speed *= 1 - table.slowdown(families.get(i), families.get(j));
                }
            }
            sum += speed;
        }
        return sum;
    }

    /** The best pack that extends {@code pack} with families from index {@code from} on, at most {@code left} more. */
    private static double best(InterferenceTable table, List<ModelFamily> pack, int from, int left) {
        double best = packSpeed(table, pack);
        ModelFamily[] families = ModelFamily.values();
        for (int i = from; left > 0 && i < families.length; i++) {
            pack.add(families[i]);
            best = Math.max(best, best(table, pack, i, left - 1));
            pack.remove(pack.size() - 1);
        }
        return best;
    }
}
