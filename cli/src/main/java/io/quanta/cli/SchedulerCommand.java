package io.quanta.cli;

import static io.quanta.cli.SettingFlags.flag;

import io.quanta.cli.metrics.ClusterMonitor;
import io.quanta.cli.metrics.MetricsServer;
import io.quanta.streams.SchedulerConfigSection;
import io.quanta.streams.app.SchedulerApp;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.config.QuantaConfig;
import io.quanta.topics.serde.AvroSerdeFactory;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.kafka.streams.KafkaStreams;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code quanta scheduler}: runs one scheduler instance (the Kafka Streams app and its status API) with its
 * Prometheus endpoint, until SIGTERM or Ctrl-C. Instances with the same {@code scheduler.application.id} share the
 * cells. Exit code 1 when Kafka Streams stops on an error.
 */
@Command(name = "scheduler", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run a scheduler instance (Kafka Streams app, status API, metrics) until Ctrl-C or SIGTERM.", "",
                "Examples:",
                "  quanta scheduler --bootstrap kafka:9092 --registry http://registry:8081",
                "  quanta scheduler --policy tiresias-las --status-port 8787 --set scheduler.standby.replicas=1"})
public final class SchedulerCommand implements Callable<Integer> {

    /** The flags of {@code quanta scheduler}: shortcuts for {@code scheduler.*} settings. */
    private static final SettingFlags FLAGS = new SettingFlags(
            flag("--policy", "NAME", String.class, SchedulerConfigSection.POLICY,
                    "Scheduling policy (scheduler.policy)."),
            flag("--status-port", "PORT", Integer.class, SchedulerConfigSection.STATUS_PORT,
                    "Status API port (scheduler.status.port)."),
            flag("--state-dir", "DIR", String.class, SchedulerConfigSection.STATE_DIR,
                    "RocksDB state (scheduler.state.dir)."));

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
        SchedulerApp app = SchedulerApp.create(effective);
        Optional<MetricsServer> metrics = MetricsServer.start(effective);
        ClusterMonitor[] monitor = {null};
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            Optional.ofNullable(monitor[0]).ifPresent(ClusterMonitor::close);
            app.close();
            metrics.ifPresent(MetricsServer::close);
        }, "quanta-scheduler-shutdown"));
        app.start();
        monitor[0] = ClusterMonitor.start(effective, TopicCatalogue.from(effective, AvroSerdeFactory.from(effective)),
                metrics.map(MetricsServer::registry), app.kafkaStreams(), List.of(), Clock.systemUTC());
        PrintWriter out = spec.commandLine().getOut();
        Optional<String> status = app.statusApiUrl();
        out.printf("scheduler %s: policy %s, status API %s, dashboard %s, metrics %s%n",
                app.settings().applicationId(), app.settings().policy().policyName(), status.orElse("off"),
                status.map(s -> s + "/dashboard").orElse("off"), metrics.map(MetricsServer::url).orElse("off"));
        if (status.isPresent() && app.statusApiNeedsToken()) {
            out.printf("the status API needs 'Authorization: Bearer <token>' (the token in %s); open the dashboard as "
                    + "%s/dashboard#token=<token>%n", SchedulerConfigSection.STATUS_TOKEN_FILE, status.get());
        }
        out.flush();
        if (app.awaitRunning(Duration.ofMinutes(5))) {
            out.println("scheduler running");
            out.flush();
        }
        app.awaitStopped();
        return app.state() == KafkaStreams.State.ERROR ? ExitCodes.FAILURE : ExitCodes.OK;
    }
}
