package io.quanta.core.policy.tiresias;

import io.quanta.core.decision.Decisions;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.policy.PolicyConfig;
import io.quanta.core.policy.SchedulingPolicy;
import java.time.Instant;
import java.util.Optional;

/** Tiresias discretised 2D-LAS (stub until implemented). */
public final class TiresiasLasPolicy implements SchedulingPolicy {

    /** Registered name. */
    public static final String NAME = "tiresias-las";

    private final PolicyConfig config;

    public TiresiasLasPolicy(PolicyConfig config) {
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
