package io.quanta.core.scenario;

import static io.quanta.core.testing.Fixtures.aNode;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.core.config.PolicyConfig;
import io.quanta.core.model.ModelProfile;
import io.quanta.core.model.Node;
import io.quanta.core.policy.PolicyRegistry;
import io.quanta.core.testing.TinyEventLoop;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The policies side by side on one contended, heavy-tailed workload (seeded, so deterministic): every job finishes
 * under every policy, and the known ordering of the papers holds (clairvoyant SRTF best, LAS far ahead of FIFO).
 */
class PolicyComparisonTest {

    private static final Map<String, Double> AVG_JCT = new TreeMap<>();

    @BeforeAll
    static void runAllPolicies() {
        Random rnd = new Random(1);
        List<TinyEventLoop.JobSpec> jobs = new ArrayList<>();
        String[] models = {"resnet50", "lstm", "vgg16"};
        for (int i = 0; i < 120; i++) {
            int gpus = new int[] {1, 1, 1, 1, 2, 4, 8}[rnd.nextInt(7)];
            double work = Math.exp(rnd.nextGaussian() * 1.5 + 6);
            jobs.add(new TinyEventLoop.JobSpec(String.format("j%03d", i), rnd.nextBoolean() ? "a" : "b", gpus,
                    i * 30.0, work, new ModelProfile(models[rnd.nextInt(3)], rnd.nextDouble(),
                    4000 + rnd.nextInt(8000), 100)));
        }
        List<Node> nodes = new ArrayList<>();
        for (int n = 0; n < 2; n++) {
            nodes.add(aNode("n" + n).rack("r" + n).gpus(8).memoryMiB(16000).build());
        }
        for (String name : PolicyRegistry.builtIn().names()) {
            var policy = PolicyRegistry.builtIn().create(PolicyConfig.of(Map.of("policy", name)));
            var result = new TinyEventLoop(policy, nodes, 2, 3, 0.6).run(jobs, 1e7, 1_000_000);
            assertThat(result.unfinished()).as(name).isEmpty();
            AVG_JCT.put(name, jobs.stream()
                    .mapToDouble(j -> result.finishedAt().get(j.id()) - j.submitAt()).average().orElseThrow());
        }
    }

    @Test
    void shouldBeatFifoWhenJobsAreHeavyTailedAndContended() {
        assertThat(AVG_JCT.get("tiresias-las")).as("%s", AVG_JCT).isLessThan(AVG_JCT.get("fifo") * 0.6);
        assertThat(AVG_JCT.get("tiresias-gittins")).as("%s", AVG_JCT).isLessThan(AVG_JCT.get("fifo") * 0.6);
        assertThat(AVG_JCT.get("quanta")).as("%s", AVG_JCT).isLessThan(AVG_JCT.get("fifo") * 0.6);
        assertThat(AVG_JCT.get("gandiva")).as("%s", AVG_JCT).isLessThan(AVG_JCT.get("fifo"));
    }

    @Test
    void shouldLetTheClairvoyantBoundWinWhenDurationsAreKnown() {
        assertThat(AVG_JCT.get("srtf-oracle")).as("%s", AVG_JCT)
                .isLessThanOrEqualTo(AVG_JCT.get("tiresias-las"))
                .isLessThanOrEqualTo(AVG_JCT.get("quanta"));
    }
}
