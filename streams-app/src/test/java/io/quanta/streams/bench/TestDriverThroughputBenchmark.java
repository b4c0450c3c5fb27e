package io.quanta.streams.bench;

import io.quanta.streams.SchedulerSettings;
import io.quanta.streams.StoreOptions;
import io.quanta.streams.testing.MiniCluster;
import io.quanta.streams.testing.SchedulerDriver;
import java.lang.management.ManagementFactory;
import java.time.Duration;

/**
 * How fast the real topology runs under TopologyTestDriver with in-memory stores without changelogs (the simulator's
 * set-up): a seeded cluster of nodes answering every command, jobs arriving over a simulated period; prints input
 * records per CPU-second of the driving thread (broker-free, so the machine's other load matters less than for wall
 * time). Not a test. Arguments: {@code [policy=tiresias-las] [nodes=96] [jobs=4000] [seconds=40000] [runs=3]}.
 */
public final class TestDriverThroughputBenchmark {

    private TestDriverThroughputBenchmark() {
    }

    public static void main(String[] args) {
        String policy = args.length > 0 ? args[0] : "tiresias-las";
        int nodes = args.length > 1 ? Integer.parseInt(args[1]) : 96;
        int jobs = args.length > 2 ? Integer.parseInt(args[2]) : 4000;
        long seconds = args.length > 3 ? Long.parseLong(args[3]) : 40_000;
        int runs = args.length > 4 ? Integer.parseInt(args[4]) : 3;
        System.out.printf("| run | policy | nodes x 4 GPUs | jobs | input records | passes | CPU s | inputs per CPU-s "
                + "| wall s |%n|---|---|---|---|---|---|---|---|---|%n");
        for (int run = 1; run <= runs; run++) {
            try (SchedulerDriver driver = new SchedulerDriver(SchedulerSettings.defaults().withPolicy(policy)
                    .withNodeTimeout(Duration.ofHours(2)), StoreOptions.inMemoryWithoutChangelogs())) {
                long cpu0 = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
                long wall0 = System.nanoTime();
                MiniCluster cluster = new MiniCluster(driver, run, 600);
                cluster.run(nodes, jobs, seconds);
                double cpu = (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu0) / 1e9;
                double wall = (System.nanoTime() - wall0) / 1e9;
                System.out.printf("| %d | %s | %d | %d | %d | %d | %.1f | %.0f | %.1f |%n", run, policy, nodes, jobs,
                        cluster.inputs(), driver.meta(SchedulerDriver.CELL).passes(), cpu, cluster.inputs() / cpu, wall);
            }
        }
    }
}
