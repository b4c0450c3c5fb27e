package io.quanta.core.bench;

import io.quanta.core.config.PolicyConfig;
import io.quanta.core.decision.Decisions;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.policy.PolicyRegistry;
import io.quanta.core.policy.SchedulingPolicy;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;

/**
 * Companion of the JMH benchmark for a shared, overloaded machine: the median thread-CPU time (and wall time) of
 * one {@code decide} pass on the same cells, which other processes' load inflates far less than wall time.
 * Usage: {@code bench.sh cpu [gpus,...] [policy,...] [shape,...]}; prints a Markdown table.
 */
public final class PassCpuTable {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private PassCpuTable() {
    }

    public static void main(String[] args) {
        List<Integer> sizes = Arrays.stream((args.length > 0 ? args[0] : "10000").split(","))
                .map(Integer::valueOf).toList();
        List<String> policies = List.of((args.length > 1 ? args[1]
                : "tiresias-las,tiresias-gittins,gandiva,quanta,fifo,srtf-oracle").split(","));
        List<String> shapes = List.of((args.length > 2 ? args[2] : "STEADY,TYPICAL,BURST").split(","));
        System.out.println("| GPUs | jobs | policy | shape | decisions | CPU median ms | CPU p90 ms | wall median ms |");
        System.out.println("|---:|---:|---|---|---:|---:|---:|---:|");
        for (int gpus : sizes) {
            for (String shape : shapes) {
                ClusterSnapshot cell = BenchCells.cell(gpus, BenchCells.Shape.valueOf(shape), 42);
                for (String policy : policies) {
                    row(gpus, cell, policy, shape);
                }
            }
        }
    }

    private static void row(int gpus, ClusterSnapshot cell, String name, String shape) {
        SchedulingPolicy policy = PolicyRegistry.builtIn().create(PolicyConfig.defaults(name));
        int rounds = gpus >= 100_000 ? 10 : 40;
        long warmUntil = System.nanoTime() + (gpus >= 100_000 ? 20_000_000_000L : 6_000_000_000L);
        for (int i = 0; i < 3 * rounds || System.nanoTime() < warmUntil; i++) {
            policy.decide(cell);
        }
        long[] cpu = new long[rounds];
        long[] wall = new long[rounds];
        int decisions = 0;
        for (int i = 0; i < rounds; i++) {
            long c0 = THREADS.getCurrentThreadCpuTime();
            long w0 = System.nanoTime();
            Decisions d = policy.decide(cell);
            wall[i] = System.nanoTime() - w0;
            cpu[i] = THREADS.getCurrentThreadCpuTime() - c0;
            decisions = d.size();
        }
        Arrays.sort(cpu);
        Arrays.sort(wall);
        System.out.printf(java.util.Locale.ROOT, "| %d | %d | %s | %s | %d | %.2f | %.2f | %.2f |%n", gpus,
                cell.jobs().size(), name, shape, decisions, cpu[rounds / 2] / 1e6, cpu[rounds * 9 / 10] / 1e6,
                wall[rounds / 2] / 1e6);
    }
}
