package io.quanta.cli;

import io.quanta.core.config.InvalidPolicyConfigException;
import io.quanta.sim.SimulationOptions;
import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.engine.EngineSettings;
import io.quanta.sim.engine.FidelityMode;
import io.quanta.sim.topology.TopologyScheduler;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code quanta simulate}: trace-driven what-if runs of the real scheduler topology on simulated nodes and virtual
 * time (the simulator module's {@link io.quanta.sim.SimulateCommand}); no cluster needed. The one entry to a
 * simulation: {@code simulator/simulate.sh} runs it too.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Replay a trace through the real scheduler on a simulated cluster (virtual time).", "",
                "Examples:",
                "  quanta simulate --trace ../shared/traces/philly_dev_slice_2000.csv --cluster 2x12x8",
                "  quanta simulate --trace T.csv --compare fifo,tiresias-las,quanta --out sim-out"})
public final class SimulateCommand implements Callable<Integer> {

    @Option(names = "--trace", required = true, paramLabel = "FILE",
            description = "Trace CSV in the common format (job_id,submit_time_s,num_gpus,duration_s,...).")
    Path trace;

    @Option(names = "--cluster", paramLabel = "RxSxG", defaultValue = "2x12x8",
            description = "Racks x servers per rack x GPUs per server (default ${DEFAULT-VALUE}).")
    String cluster;

    @Option(names = "--policy", paramLabel = "NAME", defaultValue = SimulationOptions.DEFAULT_POLICY,
            description = "fifo, srtf-oracle, tiresias-las, tiresias-gittins, gandiva, quanta (default ${DEFAULT-VALUE}).")
    String policy;

    @Option(names = "--param", paramLabel = "KEY=VALUE", description = "Policy parameter; repeatable. "
            + "sim.telemetry-window-s=S reports throughput as the node connector does, averaged over S-second windows "
            + "(default 0: every change at once).")
    Map<String, String> params = new LinkedHashMap<>();

    @Option(names = "--compare", split = ",", paramLabel = "POLICY",
            description = "Run several policies on the same trace; ratios to fifo.")
    List<String> compare = new ArrayList<>();

    @Option(names = "--model", paramLabel = "MODE", defaultValue = "realistic",
            description = "realistic (default), tiresias-compatible, or a variant of realistic: realistic-switch-x2, "
                    + "realistic-no-pack-gain, realistic-spread-half.")
    String model;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "Seed of the model-profile rule.")
    long seed;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "0", description = "Only the first N jobs.")
    int limit;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "sim-out", description = "Output directory.")
    Path out;

    @Option(names = "--no-progress", description = "No progress lines on stderr.")
    boolean noProgress;

    @Option(names = "--decisions", description = "Also write every decision of each run to decisions.jsonl in its "
            + "output directory: the records of quanta.scheduler.decisions, Avro JSON, one per line (about half a "
            + "kilobyte per decision).")
    boolean decisions;

    @Override
    public Integer call() {
        new io.quanta.sim.SimulateCommand(TopologyScheduler::create, EngineSettings.defaults(), System::nanoTime)
                .execute(options(), System.out, System.err);
        return ExitCodes.OK;
    }

    /**
     * The parsed flags, validated.
     *
     * @throws IllegalArgumentException naming the bad value
     */
    SimulationOptions options() {
        try {
            return new SimulationOptions(trace, limit, ClusterShape.parse(cluster), policy, params, seed,
                    FidelityMode.parse(model), compare, out, !noProgress, decisions);
        } catch (InvalidPolicyConfigException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }
}
