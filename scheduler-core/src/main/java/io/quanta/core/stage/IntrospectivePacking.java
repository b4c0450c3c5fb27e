package io.quanta.core.stage;

import io.quanta.core.config.PolicyConfig;
import io.quanta.core.config.PolicyConfigKeys;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.Job;
import io.quanta.core.model.JobState;
import io.quanta.core.plan.Placer;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The Gandiva mechanisms as one reusable bundle, configured by {@code placement.packing},
 * {@code placement.max-jobs-per-gpu}, {@code introspection.*} and {@code migration.*}: introspection before
 * allocation, packing as an allocation fallback, de-fragmenting migration after it.
 */
public final class IntrospectivePacking {

    private final String policy;
    private final Placer placer;
    private final Introspector introspector;
    private final boolean packing;
    private final int maxJobsPerGpu;
    private final boolean migration;
    private final Defragmenter defragmenter;

    public IntrospectivePacking(String policy, PolicyConfig config, Placer placer) {
        this.policy = policy;
        this.placer = placer;
        this.introspector = new Introspector(policy, config.get(PolicyConfigKeys.INTROSPECTION_WINDOW_S),
                config.get(PolicyConfigKeys.INTROSPECTION_MIN_GAIN));
        this.packing = config.get(PolicyConfigKeys.PACKING);
        this.maxJobsPerGpu = config.get(PolicyConfigKeys.MAX_JOBS_PER_GPU);
        this.migration = config.get(PolicyConfigKeys.MIGRATION);
        this.defragmenter = new Defragmenter(policy, placer, config.get(PolicyConfigKeys.MIGRATIONS_PER_PASS));
    }

    /** Judges packs and migrations whose introspection window ended. */
    public void introspect(Pass pass) {
        introspector.apply(pass.running(), pass.alloc(), placer);
    }

    /** The packing fallback for this pass, when packing is on. */
    public Optional<FallbackStep> packer(Pass pass) {
        return packer(pass, false, false);
    }

    /**
     * The packing fallback for this pass, when packing is on; with {@code provenGangPairs} a waiting gang packs only
     * with a model pair that a running pack has proven ({@link Packer#provenPairsForGangs}), with
     * {@code keepLocality} a waiting gang that must still consolidate only onto a consolidated partner
     * ({@link Packer#keepingLocality}, by this bundle's placement rule).
     */
    public Optional<FallbackStep> packer(Pass pass, boolean provenGangPairs, boolean keepLocality) {
        if (!packing) {
            return Optional.empty();
        }
        Packer packer = new Packer(policy, maxJobsPerGpu, pass.snapshot().interferenceMemory(), pass.running());
        if (provenGangPairs) {
            packer.provenPairsForGangs();
        }
        if (keepLocality) {
            packer.keepingLocality(placer.rule());
        }
        return Optional.of(packer);
    }

    /** De-fragments by migration when migration is on and no job was left waiting. */
    public void defragment(Pass pass, List<Job> leftWaiting) {
        defragment(pass, leftWaiting, false);
    }

    /**
     * De-fragments by migration when migration is on and no job was left waiting, or, {@code evenIfWaiting}, also
     * when jobs were left waiting: the scheduler already gave them every free GPU they could use, so a migration then
     * takes only GPUs that no waiting job could use in this pass.
     */
    public void defragment(Pass pass, List<Job> leftWaiting, boolean evenIfWaiting) {
        if (migration && (evenIfWaiting || leftWaiting.isEmpty())) {
            defragmenter.apply(pass.running(), pass.alloc());
        }
    }

    /** The next end of an introspection window. */
    public Optional<Instant> nextWakeUp(ClusterSnapshot snapshot) {
        return introspector.nextWakeUp(snapshot.now(), Pass.inState(snapshot, JobState.RUNNING));
    }
}
