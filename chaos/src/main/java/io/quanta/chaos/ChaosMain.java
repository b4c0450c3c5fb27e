package io.quanta.chaos;

import io.quanta.chaos.infra.ChaosStack;
import io.quanta.chaos.scenario.CrashScenario;
import io.quanta.chaos.scenario.Figure;
import io.quanta.chaos.scenario.FuzzScenario;
import io.quanta.chaos.scenario.GangScenario;
import io.quanta.chaos.scenario.PartitionScenario;
import io.quanta.chaos.scenario.Scenario;
import io.quanta.chaos.scenario.ScenarioResult;
import io.quanta.chaos.scenario.SkewScenario;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The fault-injection suite from the command line: every scenario with its FULL counts (or {@code --short}, the CI
 * counts) on one stack, then one table of every figure. Exit code 0 when every promise held.
 *
 * <pre>
 * chaos/run [--short] [--only crash,partition,fuzz,skew,gang] [--run-dir DIR] [--markdown FILE]
 * </pre>
 */
public final class ChaosMain {

    private ChaosMain() {
    }

    public static void main(String[] args) throws IOException {
        List<String> list = Arrays.asList(args);
        if (list.contains("-h") || list.contains("--help")) {
            System.out.println("usage: chaos/run [--short] [--only crash,partition,fuzz,skew,gang] [--run-dir DIR] "
                    + "[--markdown FILE]");
            return;
        }
        boolean full = !list.contains("--short");
        List<String> only = option(list, "--only").map(v -> List.of(v.split(","))).orElse(List.of());
        Path runDir = option(list, "--run-dir").map(Path::of).orElse(Path.of("chaos", "target", "chaos-runs"))
                .resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        Map<String, Supplier<Scenario>> scenarios = scenarios(full);
        List<ScenarioResult> results = new ArrayList<>();
        PrintStream out = System.out;
        out.println("chaos: " + (full ? "FULL" : "SHORT") + " counts, run directory " + runDir.toAbsolutePath()
                + ", " + machine());
        long began = System.nanoTime();
        try (ChaosStack stack = ChaosStack.start(runDir)) {
            for (Map.Entry<String, Supplier<Scenario>> s : scenarios.entrySet()) {
                if (!only.isEmpty() && !only.contains(s.getKey())) {
                    continue;
                }
                out.println("chaos: running " + s.getKey() + " ...");
                ScenarioResult result = s.getValue().get().run(stack);
                results.add(result);
                out.println(result.describe());
            }
        }
        String table = table(results);
        out.println(table);
        out.printf(Locale.ROOT, "chaos: %d scenario(s) in %.1f min, %s; %s%n", results.size(),
                (System.nanoTime() - began) / 6e10, machine(),
                results.stream().allMatch(ScenarioResult::passed) ? "every promise held" : "PROMISES BROKEN");
        Path markdown = option(list, "--markdown").map(Path::of).orElse(null);
        if (markdown != null) {
            Files.writeString(markdown, table);
        }
        System.exit(results.stream().allMatch(ScenarioResult::passed) ? 0 : 1);
    }

    /** The scenarios in the order they run. */
    static Map<String, Supplier<Scenario>> scenarios(boolean full) {
        Map<String, Supplier<Scenario>> s = new LinkedHashMap<>();
        s.put("crash", () -> new CrashScenario(full ? CrashScenario.Config.FULL : CrashScenario.Config.SHORT));
        s.put("partition", () -> new PartitionScenario(full ? PartitionScenario.Config.FULL
                : PartitionScenario.Config.SHORT));
        s.put("fuzz", () -> new FuzzScenario(full ? FuzzScenario.Config.FULL : FuzzScenario.Config.SHORT));
        s.put("skew", () -> new SkewScenario(full ? SkewScenario.Config.FULL : SkewScenario.Config.SHORT));
        s.put("gang", () -> new GangScenario(full ? GangScenario.Config.FULL : GangScenario.Config.SHORT));
        return s;
    }

    /** One Markdown table of every scenario's figures. */
    static String table(List<ScenarioResult> results) {
        StringBuilder b = new StringBuilder("| scenario | figure | value | expected |\n|---|---|---|---|\n");
        for (ScenarioResult r : results) {
            for (Figure f : r.figures()) {
                b.append("| ").append(r.scenario()).append(" | ").append(f.name().strip()).append(" | ")
                        .append(f.value().replace("|", "\\|")).append(" | ")
                        .append(f.expected().isEmpty() ? "" : (f.ok() ? "" : "**FAILED** ") + f.expected())
                        .append(" |\n");
            }
            b.append("| ").append(r.scenario()).append(" | **").append(r.passed() ? "passed" : "FAILED")
                    .append("** in ").append(r.took().toSeconds()).append(" s | | |\n");
        }
        return b.toString();
    }

    /** Cores and load average (what the figures depend on). */
    static String machine() {
        String load;
        try {
            String[] fields = Files.readAllLines(Path.of("/proc/loadavg")).get(0).strip().split("\\s+");
            load = String.join(" ", Arrays.asList(fields).subList(0, Math.min(3, fields.length)));
        } catch (IOException | RuntimeException e) {
            load = "unknown";
        }
        return Runtime.getRuntime().availableProcessors() + " cores, load average " + load;
    }

    private static java.util.Optional<String> option(List<String> args, String name) {
        int i = args.indexOf(name);
        if (i < 0) {
            return java.util.Optional.empty();
        }
        if (i + 1 >= args.size()) {
            throw new IllegalArgumentException(name + " needs a value");
        }
        return java.util.Optional.of(args.get(i + 1));
    }
}
