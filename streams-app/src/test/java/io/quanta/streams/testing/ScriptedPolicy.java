package io.quanta.streams.testing;

import io.quanta.core.config.PolicyConfig;
import io.quanta.core.decision.Decision;
import io.quanta.core.decision.Decisions;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.policy.PolicyRegistry;
import io.quanta.core.policy.SchedulingPolicy;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A policy that answers passes with scripted plans, in order: a plan built from the snapshot is played when it is not
 * empty (a plan returns nothing until its jobs are there), then the next one waits. Registered as {@code scripted}
 * so the processor's handling of every decision type can be tested exactly.
 */
public final class ScriptedPolicy implements SchedulingPolicy {

    private final Deque<Function<ClusterSnapshot, List<Decision>>> plans;
    private final PolicyConfig config;

    private ScriptedPolicy(Deque<Function<ClusterSnapshot, List<Decision>>> plans, PolicyConfig config) {
        this.plans = plans;
        this.config = config;
    }

    /** A registry where {@code scripted} plays the given plans. */
    public static PolicyRegistry registry(Deque<Function<ClusterSnapshot, List<Decision>>> plans) {
        return PolicyRegistry.builtIn().with("scripted", c -> new ScriptedPolicy(plans, c));
    }

    /** A queue of plans. */
    @SafeVarargs
    public static Deque<Function<ClusterSnapshot, List<Decision>>> plans(
            Function<ClusterSnapshot, List<Decision>>... plans) {
        return new ArrayDeque<>(List.of(plans));
    }

    @Override
    public String name() {
        return "scripted";
    }

    @Override
    public PolicyConfig config() {
        return config;
    }

    @Override
    public Decisions decide(ClusterSnapshot snapshot) {
        if (plans.isEmpty()) {
            return Decisions.none();
        }
        List<Decision> plan = plans.peek().apply(snapshot);
        if (plan.isEmpty()) {
            return Decisions.none();
        }
        plans.poll();
        return new Decisions(plan);
    }

    @Override
    public Optional<Instant> nextWakeUp(ClusterSnapshot snapshot) {
        return Optional.empty();
    }
}
