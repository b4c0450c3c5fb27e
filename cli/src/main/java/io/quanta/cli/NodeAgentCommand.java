package io.quanta.cli;

import io.quanta.cli.metrics.MetricsServer;
import io.quanta.cli.metrics.NodeMetrics;
import io.quanta.node.NodeConfigSection;
import io.quanta.node.NodeConnector;
import io.quanta.topics.config.QuantaConfig;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code quanta node}: runs the node connector of this server until SIGTERM or Ctrl-C, with its Prometheus endpoint
 * ({@code metrics.*}). The flags are shortcuts for {@code node.*} settings (any other one with {@code --set}).
 */
@Command(name = "node", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run the node connector of this GPU server (until Ctrl-C or SIGTERM).", "",
                "Examples:",
                "  quanta node --node-id gpu-01 --cell cell-0 --backend process",
                "  quanta node --node-id sim-01 --cell cell-0 --backend simulated --gpus 8 --speed 600"})
public final class NodeAgentCommand implements Callable<Integer> {

    @Option(names = "--node-id", paramLabel = "ID", description = "Node id (default: host name).")
    String nodeId;

    @Option(names = "--cell", paramLabel = "CELL", description = "Cell of the node (scheduler default cell: cell-0).")
    String cell;

    @Option(names = "--rack", paramLabel = "RACK", description = "Rack of the node.")
    String rack;

    @Option(names = "--backend", paramLabel = "KIND", description = "process (real jobs) or simulated.")
    String backend;

    @Option(names = "--gpus", paramLabel = "N", description = "Virtual GPUs (simulated backend).")
    Integer gpus;

    @Option(names = "--gpu-model", paramLabel = "MODEL", description = "Virtual GPU model (simulated backend).")
    String gpuModel;

    @Option(names = "--speed", paramLabel = "FACTOR", description = "Time compression (simulated backend).")
    Double speed;

    @Option(names = "--work-dir", paramLabel = "DIR", description = "Local state directory.")
    Path workDir;

    @Mixin
    ConfigOptions config;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        QuantaConfig effective = config.loadWith(NodeConfigSection.ID, nodeId, NodeConfigSection.CELL, cell,
                NodeConfigSection.RACK, rack, NodeConfigSection.BACKEND, backend, NodeConfigSection.GPUS, gpus,
                NodeConfigSection.GPU_MODEL, gpuModel, NodeConfigSection.SIM_SPEED, speed, NodeConfigSection.WORK_DIR,
                workDir);
        effective.requireRegistryUrl();
        NodeConnector connector = NodeConnector.create(effective);
        Optional<MetricsServer> metrics = MetricsServer.start(effective);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            connector.close();
            metrics.ifPresent(MetricsServer::close);
        }, "quanta-node-shutdown"));
        connector.start();
        metrics.ifPresent(m -> {
            NodeMetrics.bind(m.registry(), connector);
            spec.commandLine().getOut().println("node " + connector.settings().nodeId() + ": metrics at " + m.url());
            spec.commandLine().getOut().flush();
        });
        connector.awaitTermination();
        if (connector.failure().isPresent()) {
            spec.commandLine().getErr().println("node " + connector.settings().nodeId() + " stopped: "
                    + connector.failure().get());
            return ExitCodes.FAILURE;
        }
        return ExitCodes.OK;
    }
}
