package io.quanta.sim;

import io.quanta.core.policy.PolicyRegistry;
import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.engine.EngineParams;
import io.quanta.sim.engine.FidelityMode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Everything {@code quanta simulate} takes, validated; the CLI builds it from flags.
 *
 * @param trace the trace CSV in the common format
 * @param limit simulate only the first {@code limit} jobs; 0 = all
 * @param cluster the cluster shape ({@code --cluster RxSxG})
 * @param policy the policy name ({@code --policy}), used when {@code compare} is empty
 * @param params policy parameters ({@code --param k=v}), applied to every policy run; {@code sim.} keys are the
 *     simulated deployment's ({@link EngineParams})
 * @param seed seed of the model-profile rule ({@code --seed})
 * @param mode fidelity of the simulated nodes ({@code --model})
 * @param compare policies to run one after the other on the same trace ({@code --compare p1,p2}); empty = one run
 * @param outputDir where the CSV, summary and HTML report go ({@code --out})
 * @param progress whether to print progress to stderr
 * @param decisions whether to write every decision of each run to {@code decisions.jsonl} beside its {@code jobs.csv}
 *     ({@code --decisions}): the records the scheduler writes to {@code quanta.scheduler.decisions}, one JSON object
 *     per line, to audit a simulated run as one audits a cell
 */
public record SimulationOptions(Path trace, int limit, ClusterShape cluster, String policy, Map<String, String> params,
                                long seed, FidelityMode mode, List<String> compare, Path outputDir,
                                boolean progress, boolean decisions) {

    /** The default policy, as in the scheduler's configuration. */
    public static final String DEFAULT_POLICY = "quanta";

    public SimulationOptions {
        Objects.requireNonNull(trace, "trace");
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(outputDir, "outputDir");
        params = java.util.Collections.unmodifiableMap(new TreeMap<>(params));
        compare = List.copyOf(compare);
        if (limit < 0) {
            throw new IllegalArgumentException("--limit must be >= 0, got " + limit);
        }
        if (params.containsKey("policy")) {
            throw new IllegalArgumentException("give the policy with --policy, not --param policy=...");
        }
        for (String name : compare.isEmpty() ? List.of(policy) : compare) {
            validated(params, name);
        }
    }

    /** The policies to run: {@code compare} if given, else {@code policy}. */
    public List<String> policies() {
        return compare.isEmpty() ? List.of(policy) : compare;
    }

    /** Whether this is a {@code --compare} run. */
    public boolean comparing() {
        return !compare.isEmpty();
    }

    /**
     * The validated policy configuration of {@code name} with the shared parameters.
     *
     * @throws io.quanta.core.config.InvalidPolicyConfigException naming every bad parameter
     */
    public Map<String, String> policyParams(String name) {
        return validated(params, name);
    }

    private static Map<String, String> validated(Map<String, String> params, String name) {
        if (!PolicyRegistry.builtIn().names().contains(name)) {
            throw new IllegalArgumentException("unknown policy '" + name + "'; allowed: "
                    + String.join(", ", PolicyRegistry.builtIn().names()));
        }
        Map<String, String> all = new TreeMap<>(params);
        all.put("policy", name);
        EngineParams.validate(all);
        return all;
    }
}
