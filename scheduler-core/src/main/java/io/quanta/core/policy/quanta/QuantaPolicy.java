package io.quanta.core.policy.quanta;

import io.quanta.core.decision.Decisions;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.policy.PolicyConfig;
import io.quanta.core.policy.SchedulingPolicy;
import java.time.Instant;
import java.util.Optional;

/** tiresias-las with introspective packing/migration and tenant quotas (stub until implemented). */
public final class QuantaPolicy implements SchedulingPolicy {

    /** Registered name. */
    public static final String NAME = "quanta";

    private final PolicyConfig config;

    public QuantaPolicy(PolicyConfig config) {
        this.config = config;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public PolicyConfig config() {
        return config;
    }

    @Override
    public Decisions decide(ClusterSnapshot snapshot) {
        return Decisions.none();
    }

    @Override
    public Optional<Instant> nextWakeUp(ClusterSnapshot snapshot) {
        return Optional.empty();
    }
}
