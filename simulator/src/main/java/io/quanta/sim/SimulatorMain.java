package io.quanta.sim;

import io.quanta.core.policy.InvalidPolicyConfigException;
import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.engine.EngineSettings;
import io.quanta.sim.engine.FidelityMode;
import io.quanta.sim.topology.TopologyScheduler;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs {@code quanta simulate} without the CLI module:
 * <pre>
 * java -cp ... io.quanta.sim.SimulatorMain --trace FILE [--cluster 2x12x8] [--policy quanta] [--param k=v]...
 *     [--seed 1] [--model realistic|tiresias-compatible] [--compare fifo,tiresias-las,...] [--out DIR]
 *     [--limit N] [--no-progress]
 * </pre>
 * Exit status 0 on success, 2 on a usage error, 1 when the simulation fails.
 */
public final class SimulatorMain {

    /** The usage text. */
    public static final String USAGE = """
            usage: simulate --trace FILE [options]
              --trace FILE          trace CSV in the common format (job_id,submit_time_s,num_gpus,duration_s,...)
              --cluster RxSxG       racks x servers x GPUs per server (default 2x12x8)
              --policy NAME         fifo, srtf-oracle, tiresias-las, tiresias-gittins, gandiva, quanta (default quanta)
              --param K=V           policy parameter, repeatable (e.g. tiresias.thresholds=3250,7200)
              --seed N              seed of the model-profile rule (default 1)
              --model MODE          realistic (default), tiresias-compatible, or a variant of realistic:
                                    realistic-switch-x2, realistic-no-pack-gain, realistic-spread-half
              --compare P1,P2,...   run several policies on the same trace; ratios to fifo
              --out DIR             output directory (default sim-out)
              --limit N             only the first N jobs of the trace
              --no-progress         no progress lines on stderr
            """;

    private SimulatorMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Parses {@code args}, runs and returns the exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        SimulationOptions options;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            err.println("simulate: " + e.getMessage());
            err.print(USAGE);
            return 2;
        }
        try {
            new SimulateCommand(TopologyScheduler::create, EngineSettings.defaults(), System::nanoTime)
                    .execute(options, out, err);
            return 0;
        } catch (UncheckedIOException | IllegalStateException e) {
            err.println("simulate: " + e.getMessage());
            return 1;
        }
    }

    /**
     * Parses the flags into options.
     *
     * @throws IllegalArgumentException naming the bad flag or value
     */
    public static SimulationOptions parse(String[] args) {
        Map<String, String> single = new LinkedHashMap<>();
        Map<String, String> params = new LinkedHashMap<>();
        boolean progress = true;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            switch (flag) {
                case "--no-progress" -> progress = false;
                case "--trace", "--cluster", "--policy", "--seed", "--model", "--compare", "--out", "--limit" -> {
                    single.put(flag, value(args, ++i, flag));
                }
                case "--param" -> {
                    String kv = value(args, ++i, flag);
                    int eq = kv.indexOf('=');
                    if (eq <= 0) {
                        throw new IllegalArgumentException("--param needs KEY=VALUE, got '" + kv + "'");
                    }
                    params.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
                }
                default -> throw new IllegalArgumentException("unknown option '" + flag + "'");
            }
        }
        if (!single.containsKey("--trace")) {
            throw new IllegalArgumentException("--trace is required");
        }
        List<String> compare = new ArrayList<>();
        if (single.containsKey("--compare")) {
            Arrays.stream(single.get("--compare").split(",")).map(String::trim).filter(s -> !s.isEmpty())
                    .forEach(compare::add);
        }
        try {
            return new SimulationOptions(Path.of(single.get("--trace")),
                    Integer.parseInt(single.getOrDefault("--limit", "0")),
                    ClusterShape.parse(single.getOrDefault("--cluster", "2x12x8")),
                    single.getOrDefault("--policy", SimulationOptions.DEFAULT_POLICY), params,
                    Long.parseLong(single.getOrDefault("--seed", "1")),
                    FidelityMode.parse(single.getOrDefault("--model", FidelityMode.REALISTIC.label())), compare,
                    Path.of(single.getOrDefault("--out", "sim-out")), progress);
        } catch (InvalidPolicyConfigException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a number: " + e.getMessage(), e);
        }
    }

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length) {
            throw new IllegalArgumentException(flag + " needs a value");
        }
        return args[i];
    }
}
