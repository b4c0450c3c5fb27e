package io.quanta.cli;

import static io.quanta.cli.SettingFlags.flag;

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

    /** The flags of {@code quanta node}: shortcuts for {@code node.*} settings. */
    static final SettingFlags FLAGS = new SettingFlags(
            flag("--node-id", "ID", String.class, NodeConfigSection.ID, "Node id (default: host name)."),
            flag("--cell", "CELL", String.class, NodeConfigSection.CELL,
                    "Cell of the node (scheduler default cell: cell-0)."),
            flag("--rack", "RACK", String.class, NodeConfigSection.RACK, "Rack of the node."),
            flag("--backend", "KIND", String.class, NodeConfigSection.BACKEND, "process (real jobs) or simulated."),
            flag("--gpus", "N", Integer.class, NodeConfigSection.GPUS, "Virtual GPUs (simulated backend)."),
            flag("--gpu-model", "MODEL", String.class, NodeConfigSection.GPU_MODEL,
                    "Virtual GPU model (simulated backend)."),
            flag("--speed", "FACTOR", Double.class, NodeConfigSection.SIM_SPEED,
                    "Time compression (simulated backend)."),
            flag("--work-dir", "DIR", Path.class, NodeConfigSection.WORK_DIR, "Local state directory."));

    @Mixin
    CommandSpec flags = FLAGS.options();

    @Mixin
    ConfigOptions config;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        QuantaConfig effective = config.loadWith(FLAGS.settings(flags));
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
