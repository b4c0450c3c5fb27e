package io.quanta.core.contract;

import static io.quanta.core.testing.Fixtures.aNode;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.core.model.ModelProfile;
import io.quanta.core.model.Node;
import io.quanta.core.config.PolicyConfig;
import io.quanta.core.policy.PolicyRegistry;
import io.quanta.core.policy.SchedulingPolicy;
import io.quanta.core.testing.TinyEventLoop;
import io.quanta.core.testing.TinyEventLoop.JobSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random workloads stepped through the tiny event loop: with the starvation knob on, every policy finishes every job
 * that fits the cell, and every pass keeps the decision contract (checked inside the loop).
 */
class NoStarvationPropertyTest {

    private static final List<String> MODELS = List.of("resnet50", "lstm", "vgg16", "transformer");

    record Workload(int racks, int nodesPerRack, int gpusPerNode, List<JobSpec> jobs) {
    }

    @Provide
    Arbitrary<String> policies() {
        return Arbitraries.of(List.copyOf(PolicyRegistry.builtIn().names()));
    }

    @Provide
    Arbitrary<Workload> workloads() {
        Arbitrary<JobSpec> job = Combinators.combine(
                Arbitraries.of(1, 1, 1, 2, 2, 4, 8),
                Arbitraries.integers().between(0, 3000),
                Arbitraries.integers().between(5, 2500),
                Arbitraries.of(MODELS),
                Arbitraries.of(0L, 4000L, 9000L, 15000L),
                Arbitraries.of(0.1, 0.9),
                Arbitraries.of("a", "b")).as((g, at, work, model, mem, skew, tenant) ->
                new JobSpec("x", tenant, g, at, work, new ModelProfile(model, skew, mem, 100)));
        return Combinators.combine(Arbitraries.integers().between(1, 2), Arbitraries.integers().between(1, 3),
                        Arbitraries.of(2, 4, 8), job.list().ofMinSize(1).ofMaxSize(18))
                .as((racks, nodes, gpus, jobs) -> new Workload(racks, nodes, gpus, named(jobs)));
    }

    /** The jobs named j00, j01, ... in order. */
    private static List<JobSpec> named(List<JobSpec> jobs) {
        List<JobSpec> named = new ArrayList<>();
        for (int i = 0; i < jobs.size(); i++) {
            JobSpec j = jobs.get(i);
            named.add(new JobSpec(String.format("j%02d", i), j.tenant(), j.numGpus(), j.submitAt(), j.work(),
                    j.profile()));
        }
        return named;
    }

    /**
     * quanta's optional mechanisms, each on or off: making room, re-consolidating spread gangs, de-fragmenting while
     * jobs wait, the reservation, the declared index, packing gangs only where they could start.
     */
    @Provide
    Arbitrary<Map<String, String>> quantaOptions() {
        return Combinators.combine(Arbitraries.of("on", "off"), Arbitraries.of("on", "off"),
                        Arbitraries.of("idle", "always"), Arbitraries.of("0", "600"),
                        Arbitraries.of("learned", "declared"), Arbitraries.of("any", "rule"))
                .as((room, again, defragment, reserve, index, locality) -> Map.of("policy", "quanta",
                        "quanta.starvation-knob", "2", "quota.a", "4", "tiresias.thresholds", "500,2000",
                        "quanta.make-room", room, "quanta.reconsolidate", again, "quanta.defragment", defragment,
                        "quanta.reserve-after-s", reserve, "quanta.index", index, "quanta.pack-locality", locality));
    }

    @Property(tries = 80)
    void shouldFinishEveryJobWhenTheKnobIsOn(@ForAll("policies") String name, @ForAll("workloads") Workload w) {
        shouldFinishEveryJob(name, Map.of("policy", name, "tiresias.starvation-knob", "2", "quota.a", "4",
                "tiresias.thresholds", "500,2000"), w);
    }

    /**
     * Workloads that fragment: servers of 4 GPUs, mostly one-GPU jobs arriving together, and skewed gangs of 2 and 4
     * that wait for a whole server, where making room, the reservation and de-fragmenting act.
     */
    @Provide
    Arbitrary<Workload> fragmenting() {
        Arbitrary<JobSpec> job = Combinators.combine(
                Arbitraries.of(1, 1, 1, 1, 2, 4),
                Arbitraries.integers().between(0, 600),
                Arbitraries.integers().between(50, 3000),
                Arbitraries.of(MODELS),
                Arbitraries.of("a", "b")).as((g, at, work, model, tenant) ->
                new JobSpec("x", tenant, g, at, work, new ModelProfile(model, 0.9, 4000, 100)));
        return Combinators.combine(Arbitraries.integers().between(2, 4), job.list().ofMinSize(6).ofMaxSize(20))
                .as((nodes, jobs) -> new Workload(1, nodes, 4, named(jobs)));
    }

    @Property(tries = 60)
    void shouldFinishEveryJobUnderQuantasOptionalMechanisms(@ForAll("quantaOptions") Map<String, String> config,
                                                            @ForAll("fragmenting") Workload w) {
        shouldFinishEveryJob("quanta " + config, config, w);
    }

    private static void shouldFinishEveryJob(String name, Map<String, String> config, Workload w) {
        SchedulingPolicy policy = PolicyRegistry.builtIn().create(PolicyConfig.of(config));
        List<Node> nodes = new ArrayList<>();
        for (int r = 0; r < w.racks(); r++) {
            for (int n = 0; n < w.nodesPerRack(); n++) {
                nodes.add(aNode("r" + r + "n" + n).rack("r" + r).gpus(w.gpusPerNode()).memoryMiB(16_000).build());
            }
        }
        int cellGpus = w.racks() * w.nodesPerRack() * w.gpusPerNode();
        double horizon = 3000 + w.jobs().stream().mapToDouble(j -> j.work() * 3 + 400).sum();

        TinyEventLoop.Result result = new TinyEventLoop(policy, nodes, 2, 3, 0.6).run(w.jobs(), horizon, 200_000);

        List<String> tooBig = w.jobs().stream().filter(j -> j.numGpus() > cellGpus).map(JobSpec::id).toList();
        assertThat(result.unfinished()).as("unfinished jobs of %s; log tail %s", name,
                result.log().subList(Math.max(0, result.log().size() - 20), result.log().size())).isEmpty();
        assertThat(result.finishedAt().keySet()).noneMatch(tooBig::contains);
        assertThat(result.decisionCounts().getOrDefault("REJECT", 0)).isEqualTo(tooBig.size());
    }
}
