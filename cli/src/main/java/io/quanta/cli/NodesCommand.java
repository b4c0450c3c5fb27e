package io.quanta.cli;

import io.quanta.cli.client.AvroJson;
import io.quanta.cli.client.Durations;
import io.quanta.cli.client.Table;
import io.quanta.schemas.GpuInfo;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.schemas.RunningAttempt;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code quanta nodes}: every node heard from recently, from its latest heartbeat: cell, rack, GPUs busy and free,
 * unhealthy GPUs, the attempts it runs, and whether it is Ready (heard from within the node timeout).
 */
@Command(name = "nodes", mixinStandardHelpOptions = true,
        description = "Show the nodes heard from recently, with their GPUs and jobs (from their heartbeats).",
        subcommands = {NodeAdmissionCommands.Admit.class, NodeAdmissionCommands.Revoke.class,
                NodeAdmissionCommands.Secret.class})
public final class NodesCommand extends ClientCommand implements Callable<Integer> {

    @Option(names = "--since", paramLabel = "SECONDS", defaultValue = "600",
            description = "Nodes heard from in this many seconds (default ${DEFAULT-VALUE}).")
    long sinceSeconds;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "30",
            description = "Silence after which a node is shown NotReady (default ${DEFAULT-VALUE}, as "
                    + "scheduler.node.timeout.ms).")
    long timeoutSeconds;

    @Option(names = "--json", description = "JSON output (the latest heartbeat of each node).")
    boolean json;


    @Override
    public Integer call() {
        Instant now = clock.instant();
        Map<String, NodeHeartbeat> nodes = client()
                .heartbeatsSince(now.minusSeconds(sinceSeconds));
        PrintWriter out = out();
        if (json) {
            out.println(AvroJson.print(AvroJson.array(nodes.values())));
        } else if (nodes.isEmpty()) {
            out.println("No nodes heard from in the last " + Durations.human(Duration.ofSeconds(sinceSeconds)) + ".");
        } else {
            out.print(render(nodes.values(), now, Duration.ofSeconds(timeoutSeconds)));
        }
        out.flush();
        return ExitCodes.OK;
    }

    /** The node table and a total line. */
    static String render(Collection<NodeHeartbeat> nodes, Instant now, Duration timeout) {
        Table table = new Table("NODE", "STATUS", "CELL", "RACK", "GPUS", "BUSY", "FREE", "UNHEALTHY", "MODEL", "JOBS",
                "LAST SEEN");
        int total = 0;
        int busyTotal = 0;
        int freeTotal = 0;
        for (NodeHeartbeat hb : nodes) {
            Set<Integer> busy = busyGpus(hb);
            long unhealthy = hb.getGpus().stream().filter(g -> !g.getHealthy()).count();
            int free = (int) hb.getGpus().stream().filter(g -> g.getHealthy() && !busy.contains(g.getIndex())).count();
            boolean ready = Duration.between(hb.getSentAt(), now).compareTo(timeout) <= 0;
            String model = hb.getGpus().stream().map(GpuInfo::getModel).distinct().sorted()
                    .reduce((a, b) -> a + "," + b).orElse("-");
            String jobs = hb.getRunning().stream().map(r -> r.getJobId() + "#" + r.getAttempt()).sorted()
                    .reduce((a, b) -> a + "," + b).orElse("");
            table.row(hb.getNodeId(), ready ? "Ready" : "NotReady", hb.getCellId(), hb.getRack(), hb.getGpus().size(),
                    busy.size(), free, unhealthy, model, jobs, Durations.age(hb.getSentAt(), now) + " ago");
            total += hb.getGpus().size();
            busyTotal += busy.size();
            freeTotal += free;
        }
        return table.render() + String.format("%n%d nodes, %d GPUs: %d busy, %d free%n", nodes.size(), total,
                busyTotal, freeTotal);
    }

    private static Set<Integer> busyGpus(NodeHeartbeat hb) {
        Set<Integer> busy = new TreeSet<>();
        for (RunningAttempt r : hb.getRunning()) {
            busy.addAll(r.getGpuIndices());
        }
        return busy;
    }
}
