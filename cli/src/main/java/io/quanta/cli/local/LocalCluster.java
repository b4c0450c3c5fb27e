package io.quanta.cli.local;

import io.micrometer.core.instrument.MeterRegistry;
import io.quanta.cli.client.ClusterAccess;
import io.quanta.cli.metrics.ClusterMonitor;
import io.quanta.cli.metrics.MetricsServer;
import io.quanta.cli.metrics.NodeMetrics;
import io.quanta.cli.observe.RecordSink;
import io.quanta.cli.setup.ClusterSetup;
import io.quanta.embedded.ApicurioRegistryProcess;
import io.quanta.embedded.Await;
import io.quanta.embedded.EmbeddedKafkaBroker;
import io.quanta.node.NodeConfigSection;
import io.quanta.node.NodeConnector;
import io.quanta.node.NodeSettings;
import io.quanta.schemas.NodeAdmission;
import io.quanta.sim.cluster.ClusterShape;
import io.quanta.streams.SchedulerConfigSection;
import io.quanta.streams.app.SchedulerApp;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.TopicSpec;
import io.quanta.topics.admin.AclApplyResult;
import io.quanta.topics.admin.AclPlan;
import io.quanta.topics.auth.NodeMac;
import io.quanta.topics.auth.NodeSecret;
import io.quanta.topics.config.ConnectionConfigSection;
import io.quanta.topics.config.QuantaConfig;
import io.quanta.topics.serde.AvroSerdeFactory;
import io.quanta.topics.serde.AvroTrust;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything of {@code quanta local} in this process, on loopback, with its state in a {@link DataDir}: the embedded
 * KRaft broker and the Apicurio registry (child process, schemas kept on disk) started in parallel, the topics, the
 * scheduler ({@link SchedulerApp}, status API), one simulated (or process) node connector per server of the cluster
 * shape, the Prometheus endpoint and a {@link ClusterMonitor}; or only the {@link LocalPart}s asked for (the broker,
 * the registry, the topics, the metrics endpoint and the monitor always run). Secured ({@link Options#secure()}):
 * the broker takes SASL_SSL only, the roles' ACLs are applied before anything else starts, and each part connects as
 * its own user (topics as the admin, the scheduler, each node, the monitor as the auditor) through configuration
 * alone. {@link #close()} stops them in reverse order and leaves no process behind.
 */
public final class LocalCluster implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LocalCluster.class);

    /**
     * What to run.
     *
     * @param shape racks x servers x GPUs
     * @param backend how the nodes run jobs
     * @param gpuModel GPU model of simulated nodes
     * @param time time compression (the speed)
     * @param registryTimeout how long the registry may take to start
     * @param base the user's configuration (file, environment, --set), under what this class sets
     * @param sinks more receivers of the observed records (a workload recorder)
     * @param parts what to run (always with the broker and the registry)
     * @param secure SASL_SSL, the authorizer and least-privilege ACLs, each part as its own user
     *     ({@link LocalSecurity}), each tenant on its own submissions topic ({@link #tenantTopics()})
     * @param tenants the tenant users of a secured cluster
     */
    public record Options(ClusterShape shape, NodeSettings.Backend backend, String gpuModel, TimeCompression time,
                          Duration registryTimeout, QuantaConfig base, List<RecordSink> sinks, Set<LocalPart> parts,
                          boolean secure, List<String> tenants) {

        /** A whole cluster. */
        public Options(ClusterShape shape, NodeSettings.Backend backend, String gpuModel, TimeCompression time,
                       Duration registryTimeout, QuantaConfig base, List<RecordSink> sinks) {
            this(shape, backend, gpuModel, time, registryTimeout, base, sinks, LocalPart.all());
        }

        /** A plaintext cluster of these parts. */
        public Options(ClusterShape shape, NodeSettings.Backend backend, String gpuModel, TimeCompression time,
                       Duration registryTimeout, QuantaConfig base, List<RecordSink> sinks, Set<LocalPart> parts) {
            this(shape, backend, gpuModel, time, registryTimeout, base, sinks, parts, false, List.of());
        }

        public Options {
            parts = Set.copyOf(parts);
            tenants = List.copyOf(tenants);
        }
    }

    private final List<AutoCloseable> started = new ArrayList<>();
    private EmbeddedKafkaBroker broker;
    private ApicurioRegistryProcess registry;
    private SchedulerApp scheduler;
    private final List<NodeConnector> nodes = new ArrayList<>();
    private Optional<MetricsServer> metrics = Optional.empty();
    private ClusterMonitor monitor;
    private QuantaConfig config;
    private LocalSecurity security;
    private NodeSecret nodeSecret;
    private Set<LocalPart> parts = LocalPart.all();

    private LocalCluster() {
    }

    /**
     * Starts everything; on failure stops what started and rethrows.
     *
     * @param log told about each step
     */
    public static LocalCluster start(Options options, DataDir dir, LocalPorts ports, Consumer<String> log) {
        LocalCluster cluster = new LocalCluster();
        try {
            cluster.startAll(options, dir, ports, log);
            return cluster;
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    private void startAll(Options o, DataDir dir, LocalPorts ports, Consumer<String> log) {
        parts = o.parts();
        AvroTrust.trustQuantaSchemas();
        log.accept("starting Kafka broker and schema registry" + (dir.hasState() ? " (resuming " + dir.root() + ")"
                : ""));
        security = o.secure() ? LocalSecurity.open(dir, o.shape().nodeIds(), o.tenants()) : null;
        broker = EmbeddedKafkaBroker.builder().dataDir(dir.kafka())
                .ports(ports.get(LocalPorts.BROKER), ports.get(LocalPorts.CONTROLLER))
                .security(security == null ? null : security.broker()).build();
        registry = ApicurioRegistryProcess.persistent(o.registryTimeout(), dir.registry(),
                ports.get(LocalPorts.REGISTRY), dir.registry().resolve("registry.log"))
                .ownerClosesOnExit(Duration.ofSeconds(90)); // on Ctrl-C, LocalRun's hook stops the scheduler first
        started.add(broker);
        started.add(registry);
        CompletableFuture<?> registryStarted = CompletableFuture.runAsync(registry::start);
        broker.start();
        try {
            registryStarted.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
        config = o.base().withOverrides(settings(o, dir, ports));
        if (security != null) {
            // node authentication: only admitted nodes whose records carry their own key count
            Path secretFile = dir.root().resolve("node-secret");
            if (!Files.exists(secretFile)) {
                NodeSecret.generate().write(secretFile);
            }
            nodeSecret = NodeSecret.read(secretFile);
            config = config.withOverrides(Map.of(SchedulerConfigSection.NODE_SECRET_FILE, secretFile.toString()));
        }
        QuantaConfig admin = configAs(LocalSecurity.ADMIN);
        log.accept("applying topics");
        ClusterSetup.applyTopics(admin);
        ClusterSetup.applySchemas(admin);
        List<String> tenantTopics = List.of();
        if (tenantTopics()) {
            log.accept("creating each tenant's submissions topic (tenants authenticated by topic)");
            List<TopicSpec<String, ?>> specs = ClusterSetup.tenantTopics(admin, o.tenants());
            ClusterSetup.applyTopics(admin, specs);
            tenantTopics = specs.stream().map(TopicSpec::name).toList();
        }
        awaitTopicsVisible(admin, tenantTopics);
        if (security != null) {
            log.accept("applying the ACLs of the roles");
            applyAcls(admin);
            if (parts.contains(LocalPart.NODES)) {
                admitNodes(admin, o.shape().nodeIds());
            }
        }
        metrics = MetricsServer.start(config);
        metrics.ifPresent(started::add);
        if (parts.contains(LocalPart.SCHEDULER)) {
            log.accept("starting the scheduler (policy " + config.getString(SchedulerConfigSection.POLICY) + ")");
            scheduler = SchedulerApp.create(configAs(LocalSecurity.SCHEDULER));
            started.add(scheduler);
            scheduler.start();
        }
        TopicCatalogue catalogue = TopicCatalogue.from(config, AvroSerdeFactory.from(config));
        if (parts.contains(LocalPart.NODES)) {
            startNodes(o, dir, log, catalogue);
        }
        monitor = ClusterMonitor.start(configAs(LocalSecurity.AUDITOR), catalogue, metrics.map(m -> (MeterRegistry) m.registry()),
                scheduler == null ? Optional.empty() : scheduler.kafkaStreams(), o.sinks(), Clock.systemUTC());
        if (scheduler != null && !scheduler.awaitRunning(Duration.ofMinutes(3))) {
            throw new IllegalStateException("the scheduler did not reach RUNNING within 3 minutes (state "
                    + scheduler.state() + "); see the log above");
        }
    }

    private void startNodes(Options o, DataDir dir, Consumer<String> log, TopicCatalogue catalogue) {
        log.accept("starting " + o.shape().servers() + " " + o.backend().name().toLowerCase(Locale.ROOT)
                + " nodes (" + o.shape() + ")");
        for (String nodeId : o.shape().nodeIds()) {
            Map<String, String> own = new LinkedHashMap<>(nodeSettings(o, dir, nodeId));
            if (nodeSecret != null) {
                own.put(NodeConfigSection.AUTH_KEY, NodeMac.toHex(nodeSecret.keyOf(nodeId)));
            }
            QuantaConfig nodeConfig = configAs(LocalSecurity.nodeUser(nodeId)).withOverrides(own);
            NodeConnector node = new NodeConnector(NodeSettings.from(nodeConfig), nodeConfig, catalogue,
                    Clock.systemUTC());
            nodes.add(node);
            node.start();
            metrics.ifPresent(m -> NodeMetrics.bind(m.registry(), node));
        }
    }

    /** Admits the local nodes on {@code quanta.nodes.admissions}, as {@code quanta nodes admit} does. */
    private static void admitNodes(QuantaConfig admin, List<String> nodeIds) {
        ClusterAccess access = ClusterAccess.of(admin);
        try (KafkaProducer<String, NodeAdmission> producer = access.producer(access.topics().admissions(),
                "quanta-local-admit")) {
            for (String nodeId : nodeIds) {
                producer.send(new ProducerRecord<>(access.topics().admissions().name(), nodeId, NodeAdmission
                        .newBuilder().setNodeId(nodeId).setAdmitted(true).setAt(Instant.now()).setBy("quanta local")
                        .build()));
            }
            producer.flush();
        }
    }

    /** The roles' ACLs for the local users, as {@code quanta acls apply} makes them; drift is only logged here. */
    private void applyAcls(QuantaConfig admin) {
        AclPlan plan = ClusterSetup.aclPlan(config.withOverrides(security.aclSettings()));
        List<AclApplyResult> results = ClusterSetup.applyAcls(admin, plan);
        results.stream().filter(r -> r.outcome() == AclApplyResult.Outcome.DRIFT)
                .forEach(r -> LOG.warn("ACL beyond the roles on this local cluster: {}", r.binding()));
    }

    /**
     * Created topics reach the broker's metadata a little after the controller: wait until all are listed (the
     * catalogue's and {@code more}; the scheduler subscribes to the tenants' topics by pattern when it starts).
     */
    private static void awaitTopicsVisible(QuantaConfig config, List<String> more) {
        List<String> wanted = new ArrayList<>(TopicCatalogue.forAdministration(config).all().stream()
                .map(TopicSpec::name).toList());
        wanted.addAll(more);
        try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(
                config.kafkaClientProperties())) {
            Await.until("topics listed by the broker: " + wanted, Duration.ofSeconds(60),
                    () -> admin.listTopics().names().toCompletionStage().toCompletableFuture().join()
                            .containsAll(wanted));
        }
    }

    private static Map<String, String> settings(Options o, DataDir dir, LocalPorts ports) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put(ConnectionConfigSection.BOOTSTRAP_SERVERS, "127.0.0.1:" + ports.get(LocalPorts.BROKER));
        s.put(ConnectionConfigSection.REGISTRY_URL, "http://127.0.0.1:" + ports.get(LocalPorts.REGISTRY)
                + "/apis/ccompat/v7");
        s.put("topic.replication.factor", "1");
        s.put(SchedulerConfigSection.STATE_DIR, dir.scheduler().toString());
        s.put(SchedulerConfigSection.STATUS_HOST, "127.0.0.1");
        s.put(SchedulerConfigSection.STATUS_PORT, Integer.toString(ports.get(LocalPorts.STATUS)));
        if (o.secure() && !o.base().originals().containsKey(SchedulerConfigSection.TENANT_TOPICS)) {
            // the tenant of a job is the authenticated one: each tenant writes only its own submissions topic
            // (opt out with --set scheduler.tenant.topics=false: then any tenant user may name any tenant)
            s.put(SchedulerConfigSection.TENANT_TOPICS, "true");
        }
        if (!o.base().originals().containsKey(SchedulerConfigSection.STANDBY_REPLICAS)) {
            // one scheduler instance has nowhere to keep a standby (Kafka Streams warns on every resumed start)
            s.put(SchedulerConfigSection.STANDBY_REPLICAS, "0");
        }
        s.put(io.quanta.cli.metrics.MetricsConfigSection.HOST, "127.0.0.1");
        s.put(io.quanta.cli.metrics.MetricsConfigSection.PORT, Integer.toString(ports.get(LocalPorts.METRICS)));
        Map<String, String> params = new LinkedHashMap<>();
        o.base().originalsStrings().forEach((k, v) -> {
            if (k.startsWith(SchedulerConfigSection.POLICY_PARAM_PREFIX)) {
                params.put(k.substring(SchedulerConfigSection.POLICY_PARAM_PREFIX.length()), v);
            }
        });
        s.putAll(o.time().schedulerOverrides(params, o.base().getLong(SchedulerConfigSection.PASS_INTERVAL_MS)));
        return s;
    }

    private static Map<String, String> nodeSettings(Options o, DataDir dir, String nodeId) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put(NodeConfigSection.ID, nodeId);
        s.put(NodeConfigSection.CELL, o.base().getString(SchedulerConfigSection.DEFAULT_CELL));
        s.put(NodeConfigSection.RACK, ClusterShape.rackOf(nodeId));
        s.put(NodeConfigSection.BACKEND, o.backend().name().toLowerCase(Locale.ROOT));
        s.put(NodeConfigSection.GPUS, Integer.toString(o.shape().gpusPerServer()));
        s.put(NodeConfigSection.GPU_MODEL, o.gpuModel());
        s.put(NodeConfigSection.SIM_SPEED, Double.toString(o.time().speed()));
        s.put(NodeConfigSection.WORK_DIR, dir.node(nodeId).toString());
        s.put(NodeConfigSection.HEARTBEAT_INTERVAL_MS, "1000");
        s.put(NodeConfigSection.TELEMETRY_WINDOW_MS, "2000");
        s.put(NodeConfigSection.SHUTDOWN_TIMEOUT_MS, "5000");
        return s;
    }

    /**
     * The effective configuration (addresses included): what other terminals need. On a secured cluster it holds no
     * credentials: see {@link #configAs(String)}.
     */
    public QuantaConfig config() {
        return config;
    }

    /** The effective configuration as {@code user} of a secured cluster ({@link LocalSecurity}); else the same. */
    public QuantaConfig configAs(String user) {
        return security == null ? config : security.as(config, user);
    }

    /**
     * Whether tenants are authenticated by topic ({@code scheduler.tenant.topics}, on by default when secured): each
     * tenant submits and cancels on its own {@code <submissions>.<tenant>}, which only its user may write.
     */
    public boolean tenantTopics() {
        return security != null && config.getBoolean(SchedulerConfigSection.TENANT_TOPICS);
    }

    /** The users and their client settings, when secured. */
    public Optional<LocalSecurity> security() {
        return Optional.ofNullable(security);
    }

    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    public String registryUrl() {
        return registry.url();
    }

    /** {@code http://127.0.0.1:PORT} of the status API; empty without a scheduler (or with the API off). */
    public Optional<String> statusUrl() {
        return Optional.ofNullable(scheduler).flatMap(SchedulerApp::statusApiAddress).map(LocalCluster::url);
    }

    /** The dashboard page of the status API, when it runs. */
    public Optional<String> dashboardUrl() {
        return statusUrl().map(u -> u + "/dashboard");
    }

    /** The parts running. */
    public Set<LocalPart> parts() {
        return Set.copyOf(parts);
    }

    /** The Prometheus endpoint, when enabled. */
    public Optional<String> metricsUrl() {
        return metrics.map(MetricsServer::url);
    }

    /** The registry's log file. */
    public java.nio.file.Path registryLog() {
        return registry.logFile();
    }

    /** The live view and its observer. */
    public ClusterMonitor monitor() {
        return monitor;
    }

    /** The node connectors. */
    public List<NodeConnector> nodes() {
        return List.copyOf(nodes);
    }

    /** Whether every node reads its commands and sends heartbeats. */
    public boolean nodesReady() {
        return nodes.stream().allMatch(NodeConnector::isReady);
    }

    /**
     * Stops the observer, the nodes (in parallel: each sends its last events and heartbeat), the scheduler
     * (committing what it processed), the metrics endpoint, the registry's process tree and the broker. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (monitor != null) {
            monitor.close();
            monitor = null;
        }
        List<CompletableFuture<Void>> stopping = nodes.stream()
                .map(n -> CompletableFuture.runAsync(n::close)).toList();
        stopping.forEach(f -> f.exceptionally(e -> {
            LOG.warn("node did not stop cleanly: {}", e.toString());
            return null;
        }).join());
        nodes.clear();
        for (int i = started.size() - 1; i >= 0; i--) {
            try {
                started.get(i).close();
            } catch (Exception e) {
                LOG.warn("could not stop {}: {}", started.get(i).getClass().getSimpleName(), e.toString());
            }
        }
        started.clear();
    }

    private static String url(InetSocketAddress a) {
        return "http://" + a.getHostString() + ":" + a.getPort();
    }
}
