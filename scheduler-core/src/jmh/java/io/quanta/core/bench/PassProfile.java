package io.quanta.core.bench;

import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.Job;
import io.quanta.core.placement.PlacementRule;
import io.quanta.core.plan.Placer;
import io.quanta.core.policy.PolicyConfig;
import io.quanta.core.policy.PolicyRegistry;
import io.quanta.core.policy.SchedulingPolicy;
import io.quanta.core.stage.GangScheduler;
import io.quanta.core.stage.LasRanking;
import io.quanta.core.stage.LowerQueueFirst;
import io.quanta.core.stage.MultiLevelQueue;
import io.quanta.core.stage.Pass;
import io.quanta.core.stage.PreemptionPlanner;
import java.util.Arrays;
import java.util.List;

/** Development aid: times the stages of a tiresias-las pass on a bench cell (not a JMH benchmark). */
public final class PassProfile {

    private static final java.lang.management.ThreadMXBean THREADS =
            java.lang.management.ManagementFactory.getThreadMXBean();

    private static long cpu() {
        return THREADS.getCurrentThreadCpuTime();
    }

    public static void main(String[] args) {
        int gpus = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        BenchCells.Shape shape = BenchCells.Shape.valueOf(args.length > 1 ? args[1] : "STEADY");
        String policyName = args.length > 2 ? args[2] : "tiresias-las";
        ClusterSnapshot snapshot = BenchCells.cell(gpus, shape, 42);
        PolicyConfig config = PolicyConfig.defaults(policyName);
        SchedulingPolicy policy = PolicyRegistry.builtIn().create(config);
        MultiLevelQueue queues = MultiLevelQueue.from("p", config);
        Placer placer = new Placer(PlacementRule.from(config));
        long[][] t = new long[7][40];
        for (int round = 0; round < 80; round++) {
            long t0 = cpu();
            Pass pass = Pass.begin(snapshot);
            long t1 = cpu();
            List<Job> admitted = pass.admit("p");
            queues.apply(pass.accruing(), admitted, pass.alloc());
            long t2 = cpu();
            LasRanking ranking = new LasRanking(queues, pass.alloc());
            List<Job> ordered = Pass.ordered(admitted, ranking);
            long t3 = cpu();
            PreemptionPlanner planner = new PreemptionPlanner(new LowerQueueFirst("p", ranking, queues), placer,
                    pass.running());
            new GangScheduler("p", placer, ranking, List.of(planner), false).run(ordered, pass.alloc());
            long t4 = cpu();
            int n = pass.alloc().decisions().size();
            long t5 = cpu();
            policy.decide(snapshot);
            long t6 = cpu();
            policy.nextWakeUp(snapshot);
            long t7 = cpu();
            if (round >= 40) {
                long[] d = {t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t6 - t5, t7 - t6};
                for (int k = 0; k < 7; k++) {
                    t[k][round - 40] = d[k];
                }
            }
            if (round == 79) {
                System.out.println("decisions " + n + " " + policy.decide(snapshot).stream()
                        .collect(java.util.stream.Collectors.groupingBy(d -> d.type(), java.util.stream.Collectors.counting())));
            }
        }
        String[] names = {"pass.begin", "admit+queues", "order", "allocate", "decisions", "policy.decide", "wakeUp"};
        for (int k = 0; k < 7; k++) {
            Arrays.sort(t[k]);
            System.out.printf("%-14s median cpu %8.3f ms%n", names[k], t[k][20] / 1e6);
        }
    }
}
