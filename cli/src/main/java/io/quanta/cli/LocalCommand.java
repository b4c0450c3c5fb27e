package io.quanta.cli;

import io.quanta.cli.local.LocalPart;
import io.quanta.cli.local.LocalRun;
import io.quanta.node.NodeSettings;
import io.quanta.sim.cluster.ClusterShape;
import io.quanta.streams.SchedulerConfigSection;
import io.quanta.topics.config.QuantaConfig;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code quanta local}: a whole Quanta cluster in this process, nothing to install: an embedded KRaft broker, the
 * Apicurio registry (child process), the topics, the scheduler and simulated nodes on loopback, optionally playing a
 * trace with compressed time, with live progress, a summary and an HTML report; or only some of these parts
 * ({@code --only broker,registry}: the infrastructure for separately run schedulers and nodes). State is kept in the
 * data directory, so a second start resumes. Ctrl-C stops everything.
 */
@Command(name = "local", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run a whole cluster on this machine (broker, registry, scheduler, simulated nodes); Ctrl-C "
                + "stops it.", "",
                "Examples:",
                "  quanta local",
                "  quanta local --workload ../shared/traces/philly_dev_slice_2000.csv --limit 30 --speed 600",
                "  quanta local --cluster 2x12x8 --policy tiresias-las --workload T.csv --exit-when-done",
                "  quanta local --only broker,registry      (then quanta scheduler and quanta node separately)",
                "  quanta local --secure --tenants vision,nlp   (SASL_SSL, ACLs; client-<user>.properties per user)"})
public final class LocalCommand implements Callable<Integer> {

    @Option(names = "--only", split = ",", paramLabel = "PART",
            description = "Run only these parts: broker, registry (both always needed), scheduler, nodes; the topics "
                    + "and schemas are always applied. E.g. broker,registry to run quanta scheduler and quanta node "
                    + "as separate processes against it (default: all).")
    List<String> only;

    @Option(names = "--workload", paramLabel = "TRACE.csv",
            description = "Submit this trace (common CSV) with compressed time; without it, wait for submissions.")
    Path workload;

    @Option(names = "--speed", paramLabel = "FACTOR", defaultValue = "600",
            description = "Time compression: simulated seconds per wall second (default ${DEFAULT-VALUE}: ten "
                    + "minutes per second).")
    double speed;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "0", description = "Only the first N jobs of the trace.")
    int limit;

    @Option(names = "--exit-when-done", description = "Stop once every job of the workload has ended.")
    boolean exitWhenDone;

    @Mixin
    ClusterShapeOptions cluster;

    @Mixin
    NodeBackendOptions nodes;

    @Option(names = "--policy", paramLabel = "NAME", defaultValue = "quanta",
            description = "Scheduling policy (default ${DEFAULT-VALUE}).")
    String policy;

    @Option(names = "--param", paramLabel = "KEY=VALUE",
            description = "Policy parameter (as scheduler.policy.KEY); repeatable.")
    Map<String, String> params = new LinkedHashMap<>();

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "Seed of the workload's model mix.")
    long seed;

    @Mixin
    DataDirOptions data;

    @Option(names = "--report-dir", paramLabel = "DIR",
            description = "Where workload reports go (default: reports/ in the data directory; ./quanta-reports "
                    + "with --clean).")
    Path reportDir;

    @Option(names = "--status-port", paramLabel = "PORT", defaultValue = "0",
            description = "Status API port (default: the last run's, else a free one).")
    int statusPort;

    @Option(names = "--metrics-port", paramLabel = "PORT", defaultValue = "0",
            description = "Prometheus endpoint port (default: the last run's, else a free one).")
    int metricsPort;

    @Option(names = "--progress-every", paramLabel = "SECONDS", defaultValue = "2",
            description = "Seconds between progress lines (default ${DEFAULT-VALUE}).")
    double progressEvery;

    @Option(names = "--registry-timeout", paramLabel = "SECONDS", defaultValue = "180",
            description = "How long to wait for the schema registry to start (default: ${DEFAULT-VALUE}).")
    int registryTimeoutSeconds;

    @Option(names = "--stop-when-ready", description = "Stop as soon as everything is ready (smoke tests).")
    boolean stopWhenReady;

    @Option(names = "--secure",
            description = "Secured: the broker takes SASL_SSL only (SCRAM-SHA-512 over TLS, certificates made for "
                    + "loopback), with the authorizer on and least-privilege ACLs per role; the scheduler, each node "
                    + "and the CLI connect as their own users. Tenants are authenticated by topic "
                    + "(scheduler.tenant.topics): each tenant user may write only its own submissions topic, so it "
                    + "submits and cancels as itself only (--set scheduler.tenant.topics=false: one shared topic). "
                    + "Writes client-<user>.properties per user (the registry stays plaintext on loopback). A data "
                    + "directory keeps the mode it was made with.")
    boolean secure;

    @Option(names = "--tenants", split = ",", paramLabel = "NAME", defaultValue = "demo",
            description = "With --secure: one user tenant-NAME per tenant (default: ${DEFAULT-VALUE}); the first one "
                    + "is in client.properties and plays the workload (every trace job as that tenant).")
    List<String> tenants;

    @Mixin
    ConfigOptions config;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        Set<LocalPart> parts = only == null ? LocalPart.all() : LocalPart.parse(only);
        boolean clean = data.deleteWhenStopping();
        ClusterShape shape = cluster.shape();
        NodeSettings.Backend kind = nodes.backend();
        if (workload != null && !java.nio.file.Files.isRegularFile(workload)) {
            throw new IllegalArgumentException("--workload " + workload + ": no such file");
        }
        if (!(speed >= 1)) {
            throw new IllegalArgumentException("--speed must be >= 1, got " + speed);
        }
        Map<String, String> scheduler = new LinkedHashMap<>();
        scheduler.put(SchedulerConfigSection.POLICY, policy);
        params.forEach((k, v) -> scheduler.put(SchedulerConfigSection.POLICY_PARAM_PREFIX + k, v));
        QuantaConfig base = config.loadWithoutLocalCluster().withOverrides(scheduler);
        LocalRun.Request request = new LocalRun.Request(data.path(), data.fresh, clean, shape, kind,
                nodes.gpuModel, Optional.ofNullable(workload), limit, seed, speed, exitWhenDone,
                stopWhenReady, Duration.ofSeconds(registryTimeoutSeconds), statusPort, metricsPort,
                Duration.ofMillis(Math.max(100, Math.round(progressEvery * 1000))), Optional.ofNullable(reportDir), base,
                parts, secure, secure ? tenants : List.of());
        QuantaMain.quietLocalBroker();
        return new LocalRun(request, spec.commandLine().getOut(), spec.commandLine().getErr(), Clock.systemUTC())
                .run();
    }
}
