package io.quanta.sim.suite;

import io.quanta.node.model.JobPlacementView;
import io.quanta.node.model.ThroughputModel;
import io.quanta.schemas.ModelProfile;
import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.engine.FidelityMode;
import io.quanta.sim.profile.ProfileAssigner;
import io.quanta.sim.trace.Trace;
import io.quanta.sim.trace.TraceJob;
import java.util.ArrayList;
import java.util.List;

/**
 * The fastest any placement lets each job of a trace run on a cluster shape: a gang of more GPUs than one server
 * holds spans at least {@code ceil(g / S)} servers ({@code S} GPUs each) and, when that is more servers than one rack
 * holds, at least {@code ceil(servers / R)} racks; the throughput model slows it by the locality factor of that least
 * spread placement ({@code ThroughputModel.localityFactor}, which only falls as servers and racks grow), whatever the
 * scheduler does. A gang that fits on one server can run at full speed.
 * <p>{@link InputBounds} gives {@link AverageJctBound} each job's duration divided by that factor. The bound stays a
 * lower bound: measure a job's progress in seconds of its least-spread run (its real progress rate divided by
 * {@code l*_j}); a job then progresses at most at rate 1 per GPU, since its real rate is its locality (at most
 * {@code l*_j}) times its interference (at most 1), and it needs {@code s_j / l*_j} such seconds; on a GPU holding
 * the pack {@code P} the rescaled rates, each divided by its family's pack factor, still sum to at most 1 (each rate is
 * at most the job's interference, the argument of {@link PackingGain}). Every step of {@link AverageJctBound}'s proof
 * uses only these two facts. Durations are rounded down to whole seconds, which keeps the bound below the truth.
 * <p>Without this, the floor and the bound counted a 16-GPU AlexNet job on 8-GPU servers at full speed, while under
 * {@code realistic} it runs at {@code 1 / (1 + 0.62 x 0.46)} = 0.78 of it on every placement: the gap that no schedule
 * closes (on the suite's {@code w00-moderate}, with tiresias-las and quanta equal on the three largest jobs' JCT).
 */
public final class LeastSpread {

    private LeastSpread() {
    }

    /**
     * The locality factor, in (0, 1], of the least spread placement on {@code cluster} of a gang of {@code gpus} GPUs
     * training {@code profile}'s model, under {@code model}: 1 when the gang fits on one server.
     */
    public static double bestLocality(ThroughputModel model, ClusterShape cluster, ModelProfile profile, int gpus) {
        int servers = Math.min(cluster.servers(), Math.ceilDiv(gpus, cluster.gpusPerServer()));
        int racks = Math.ceilDiv(servers, cluster.serversPerRack());
        return model.localityFactor(new JobPlacementView(profile, gpus, servers, racks, List.of()));
    }

    /**
     * The trace with each job's duration divided by its {@link #bestLocality} (the model the simulator gives it with
     * {@code seed}, {@link ProfileAssigner}), rounded down; the same trace when no job is slowed.
     */
    public static Trace atBestPlacement(Trace trace, long seed, FidelityMode mode, ClusterShape cluster) {
        ThroughputModel model = mode.throughputModel();
        ProfileAssigner profiles = ProfileAssigner.standard(seed);
        List<TraceJob> out = new ArrayList<>(trace.size());
        boolean changed = false;
        for (TraceJob job : trace.jobs()) {
            double locality = bestLocality(model, cluster, profiles.kindOf(job.jobId()).profile(), job.numGpus());
            long duration = Math.max(job.durationSeconds(), (long) Math.floor(job.durationSeconds() / locality));
            changed |= duration != job.durationSeconds();
            out.add(duration == job.durationSeconds() ? job
                    : new TraceJob(job.jobId(), job.submitSeconds(), job.numGpus(), duration, job.tenant()));
        }
        return changed ? new Trace(trace.name(), out) : trace;
    }
}
