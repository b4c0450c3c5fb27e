package io.quanta.core.testing;

import io.quanta.core.decision.Decision;
import io.quanta.core.decision.Decisions;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.Gpu;
import io.quanta.core.model.GpuId;
import io.quanta.core.model.Job;
import io.quanta.core.model.JobState;
import io.quanta.core.model.Node;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a pass's decisions against the contract every policy must keep: one placement action per job, gang
 * (exactly numGpus GPUs), no GPU assigned twice, only free healthy GPUs on live nodes for starts and migration
 * targets, packs only onto GPUs held exactly by the named partners with memory that fits, states that allow the
 * action, queue changes from the stored level.
 */
public final class DecisionValidator {

    private DecisionValidator() {
    }

    /** Human-readable violations, empty when the decisions keep the contract. */
    public static List<String> violations(ClusterSnapshot snapshot, Decisions decisions) {
        Map<String, Job> jobs = snapshot.jobsById();
        Map<GpuId, Gpu> gpus = new HashMap<>();
        Set<GpuId> usable = new HashSet<>();
        for (Node n : snapshot.nodes()) {
            for (Gpu g : n.gpus()) {
                GpuId id = new GpuId(n.id(), g.index());
                gpus.put(id, g);
                if (n.alive() && g.healthy()) {
                    usable.add(id);
                }
            }
        }
        List<String> out = new ArrayList<>();
        Set<String> acted = new HashSet<>();
        Set<GpuId> assigned = new HashSet<>();
        for (Decision d : decisions.list()) {
            Job job = jobs.get(d.jobId());
            if (job == null || job.state().isTerminal()) {
                out.add(d.type() + " for unknown or finished job " + d.jobId());
                continue;
            }
            boolean action = !(d instanceof Decision.ChangeQueue || d instanceof Decision.RecordInterference
                    || d instanceof Decision.ConfirmPlacement);
            if (action && !acted.add(job.id())) {
                out.add("job " + job.id() + " has more than one placement decision");
            }
            switch (d) {
                case Decision.Start s -> {
                    requireState(job, JobState.QUEUED, d, out);
                    requireGang(job, s.gpus(), d, out);
                    for (GpuId g : s.gpus()) {
                        requireFree(g, gpus, usable, d, out);
                        requireType(job, gpus.get(g), d, out);
                        if (!assigned.add(g)) {
                            out.add("GPU " + g + " assigned twice (" + d.type() + " " + job.id() + ")");
                        }
                    }
                }
                case Decision.Pack p -> checkPack(job, p, jobs, gpus, usable, assigned, out);
                case Decision.Suspend s -> requireState(job, JobState.RUNNING, d, out);
                case Decision.Migrate m -> {
                    requireState(job, JobState.RUNNING, d, out);
                    if (!m.from().equals(job.placement())) {
                        out.add("migrate " + job.id() + " from " + m.from() + " but it runs on " + job.placement());
                    }
                    requireGang(job, m.to(), d, out);
                    for (GpuId g : m.to()) {
                        requireFree(g, gpus, usable, d, out);
                        if (!assigned.add(g)) {
                            out.add("GPU " + g + " assigned twice (" + d.type() + " " + job.id() + ")");
                        }
                    }
                }
                case Decision.Reject r -> requireState(job, JobState.QUEUED, d, out);
                case Decision.ChangeQueue c -> {
                    if (c.fromLevel() != job.queueLevel()) {
                        out.add("queue change of " + job.id() + " from " + c.fromLevel() + " but stored level is "
                                + job.queueLevel());
                    }
                }
                case Decision.RecordInterference r -> { }
                case Decision.ConfirmPlacement c -> { }
            }
        }
        return out;
    }

    /** Throws AssertionError listing the violations, if any. */
    public static void assertValid(ClusterSnapshot snapshot, Decisions decisions) {
        List<String> v = violations(snapshot, decisions);
        if (!v.isEmpty()) {
            throw new AssertionError("contract violations at " + snapshot.now() + ": " + v + "\ndecisions: "
                    + decisions.list());
        }
    }

    private static void checkPack(Job job, Decision.Pack p, Map<String, Job> jobs, Map<GpuId, Gpu> gpus,
                                  Set<GpuId> usable, Set<GpuId> assigned, List<String> out) {
        requireState(job, JobState.QUEUED, p, out);
        requireGang(job, p.gpus(), p, out);
        long need = job.profile().gpuMemoryMiB();
        for (String id : p.sharingWith()) {
            Job partner = jobs.get(id);
            if (partner == null || partner.state() != JobState.RUNNING) {
                out.add("pack " + job.id() + " with " + id + " that is not running");
                return;
            }
            need += partner.profile().gpuMemoryMiB();
        }
        if (!job.profile().memoryKnown()) {
            out.add("pack of " + job.id() + " whose memory is unknown");
        }
        for (GpuId g : p.gpus()) {
            Gpu gpu = gpus.get(g);
            if (gpu == null || !usable.contains(g)) {
                out.add("pack " + job.id() + " on unusable GPU " + g);
                continue;
            }
            if (assigned.contains(g)) {
                out.add("pack " + job.id() + " on GPU " + g + " assigned by a start or migration");
            }
            if (!new HashSet<>(gpu.jobIds()).equals(new HashSet<>(p.sharingWith()))) {
                out.add("pack " + job.id() + " on GPU " + g + " held by " + gpu.jobIds() + ", not " + p.sharingWith());
            }
            if (need > gpu.memoryMiB()) {
                out.add("pack " + job.id() + " needs " + need + " MiB on GPU " + g + " of " + gpu.memoryMiB());
            }
        }
    }

    private static void requireState(Job job, JobState state, Decision d, List<String> out) {
        if (job.state() != state) {
            out.add(d.type() + " of job " + job.id() + " in state " + job.state() + ", expected " + state);
        }
    }

    private static void requireGang(Job job, List<GpuId> gpus, Decision d, List<String> out) {
        if (gpus.size() != job.numGpus()) {
            out.add(d.type() + " of job " + job.id() + " on " + gpus.size() + " GPUs, needs " + job.numGpus());
        }
    }

    private static void requireFree(GpuId g, Map<GpuId, Gpu> gpus, Set<GpuId> usable, Decision d, List<String> out) {
        Gpu gpu = gpus.get(g);
        if (gpu == null || !usable.contains(g) || !gpu.jobIds().isEmpty()) {
            out.add(d.type() + " of job " + d.jobId() + " on GPU " + g + " that is not free and usable");
        }
    }

    private static void requireType(Job job, Gpu gpu, Decision d, List<String> out) {
        if (gpu != null && job.gpuType().isPresent() && !job.gpuType().get().equals(gpu.model())) {
            out.add(d.type() + " of job " + job.id() + " on a " + gpu.model() + ", wants " + job.gpuType().get());
        }
    }
}
