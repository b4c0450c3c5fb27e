package io.quanta.chaos.infra;

import io.quanta.chaos.observe.TopicTail;
import io.quanta.cli.metrics.MetricsConfigSection;
import io.quanta.cli.setup.ClusterSetup;
import io.quanta.embedded.Await;
import io.quanta.node.NodeConfigSection;
import io.quanta.schemas.JobRequest;
import io.quanta.schemas.JobSubmitted;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.streams.SchedulerConfigSection;
import io.quanta.topics.QuantaTopic;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.TopicConfigSection;
import io.quanta.topics.TopicSpec;
import io.quanta.topics.config.ConnectionConfigSection;
import io.quanta.topics.config.QuantaConfig;
import io.quanta.topics.serde.AvroSerdeFactory;
import io.quanta.topics.serde.AvroTrust;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One scenario's Quanta cluster on a shared {@link ChaosStack}: its own topics ({@code <name>.quanta...}), application
 * id and state, one properties file every process reads, the scheduler and the node connectors as child JVMs
 * ({@code quanta scheduler}, {@code quanta node}), a {@link TopicTail} of the outputs, and producers for the driver's
 * own records. Every child's output goes to a log file under {@link #dir()}.
 */
public final class ChaosCluster implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ChaosCluster.class);
    /** The cell every scenario uses (the scheduler's default cell). */
    public static final String CELL = "cell-0";
    /** The line the scheduler logs when its uncaught exception handler replaces a stream thread. */
    public static final String THREAD_REPLACED = "scheduler stream thread failed; replacing it";

    private static final List<String> SCHEDULER_JVM = List.of("-Xms128m", "-Xmx768m", "-XX:+UseSerialGC",
            "-Xshare:auto");
    private static final List<String> NODE_JVM = List.of("-Xms32m", "-Xmx192m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-Xshare:auto");

    private final ChaosStack stack;
    private final String name;
    private final Path dir;
    private final Path properties;
    private final QuantaConfig config;
    private final TopicCatalogue topics;
    private final int statusPort;
    private final StatusApi status;
    private final List<Path> schedulerLogs = new ArrayList<>();
    private final Map<String, ChildJvm> nodes = new TreeMap<>();
    private final Map<String, Integer> nodeStarts = new TreeMap<>();
    private TopicTail tail;
    private KafkaProducer<String, JobRequest> submissions;
    private KafkaProducer<byte[], byte[]> raw;
    private ChildJvm scheduler;
    private int schedulerStarts;

    private ChaosCluster(ChaosStack stack, String name, Path dir, Map<String, String> settings) {
        this.stack = stack;
        this.name = name;
        this.dir = dir;
        this.statusPort = Ports.free();
        Map<String, String> all = new LinkedHashMap<>(defaults(stack, name, dir, statusPort));
        all.putAll(settings);
        this.config = QuantaConfig.of(all);
        this.properties = dir.resolve("quanta.properties");
        writeProperties(properties, all);
        this.topics = TopicCatalogue.from(config, AvroSerdeFactory.from(config));
        this.status = new StatusApi(statusPort);
    }

    /**
     * Creates the topics (and registers their schemas) of a new cluster named {@code name} (unique per stack) and
     * starts tailing them; nothing runs yet.
     *
     * @param settings scheduler and node settings on top of the defaults (any Quanta key or Kafka client property)
     */
    public static ChaosCluster create(ChaosStack stack, String name, Map<String, String> settings) {
        AvroTrust.trustQuantaSchemas();
        Path dir = stack.runDir().resolve(name);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChaosCluster cluster = new ChaosCluster(stack, name, dir, settings);
        cluster.applyTopics();
        cluster.tail = new TopicTail(cluster.kafkaProperties(), cluster.topics);
        return cluster;
    }

    private static Map<String, String> defaults(ChaosStack stack, String name, Path dir, int statusPort) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put(ConnectionConfigSection.BOOTSTRAP_SERVERS, stack.bootstrapServers());
        s.put(ConnectionConfigSection.REGISTRY_URL, stack.registryUrl());
        s.put("topic.replication.factor", "1");
        for (QuantaTopic topic : QuantaTopic.values()) {
            if (childDefines(TopicConfigSection.class.getName(), topic.nameKey())) {
                s.put(topic.nameKey(), name + "." + topic.defaultName());
            }
        }
        s.put(SchedulerConfigSection.APPLICATION_ID, name + "-scheduler");
        s.put(SchedulerConfigSection.STATE_DIR, dir.resolve("scheduler-state").toString());
        s.put(SchedulerConfigSection.STATUS_HOST, "127.0.0.1");
        s.put(SchedulerConfigSection.STATUS_PORT, Integer.toString(statusPort));
        s.put(MetricsConfigSection.ENABLED, "false");
        s.put(NodeConfigSection.HEARTBEAT_INTERVAL_MS, "1000");
        s.put(NodeConfigSection.TELEMETRY_WINDOW_MS, "2000");
        s.put(NodeConfigSection.SHUTDOWN_TIMEOUT_MS, "5000");
        return s;
    }

    /**
     * Whether the node connector the children run ({@link ChildJvm#classPath()}) knows {@code key}: a setting it does
     * not define would make it refuse to start.
     */
    public static boolean nodeSettingExists(String key) {
        return childDefines(NodeConfigSection.class.getName(), key);
    }

    /**
     * Whether the configuration section {@code sectionClass} of the children's class path defines {@code key}
     * (loaded apart from this JVM's classes when the children run another build).
     */
    static boolean childDefines(String sectionClass, String key) {
        ClassLoader loader = childLoader();
        try {
            Object section = loader.loadClass(sectionClass).getConstructor().newInstance();
            Object definition = section.getClass().getMethod("definition").invoke(section);
            return ((java.util.Set<?>) definition.getClass().getMethod("names").invoke(definition)).contains(key);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read the settings of the children's class path: " + e, e);
        }
    }

    private static ClassLoader childLoader;

    private static synchronized ClassLoader childLoader() {
        if (childLoader == null) {
            if (ChildJvm.classPath().equals(System.getProperty("java.class.path"))) {
                childLoader = ChaosCluster.class.getClassLoader();
            } else {
                java.net.URL[] urls = java.util.Arrays.stream(ChildJvm.classPath().split(java.io.File.pathSeparator))
                        .filter(e -> !e.isBlank()).map(e -> {
                            try {
                                return Path.of(e).toUri().toURL();
                            } catch (java.net.MalformedURLException x) {
                                throw new IllegalArgumentException("bad class path entry " + e, x);
                            }
                        }).toArray(java.net.URL[]::new);
                childLoader = new java.net.URLClassLoader(urls, ClassLoader.getPlatformClassLoader());
            }
        }
        return childLoader;
    }

    private static void writeProperties(Path file, Map<String, String> values) {
        Properties p = new Properties();
        p.putAll(values);
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            p.store(w, "chaos cluster");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private void applyTopics() {
        ClusterSetup.applyTopics(config);
        ClusterSetup.applySchemas(config);
        List<String> wanted = topics.all().stream().map(TopicSpec::name).toList();
        try (Admin admin = Admin.create(config.kafkaClientProperties())) {
            Await.until("topics of " + name + " listed by the broker", Duration.ofSeconds(60),
                    () -> admin.listTopics().names().toCompletionStage().toCompletableFuture().join()
                            .containsAll(wanted));
        }
    }

    /** Kafka client settings for the driver's own clients (the broker's ordinary listener). */
    public Properties kafkaProperties() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers());
        return p;
    }

    public String name() {
        return name;
    }

    public Path dir() {
        return dir;
    }

    public Path propertiesFile() {
        return properties;
    }

    public QuantaConfig config() {
        return config;
    }

    public TopicCatalogue topics() {
        return topics;
    }

    public TopicTail tail() {
        return tail;
    }

    public StatusApi status() {
        return status;
    }

    public ChaosStack stack() {
        return stack;
    }

    // ---------------------------------------------------------------- scheduler

    /** Starts a new scheduler process (the previous one must be dead); its log is {@code scheduler-N.log}. */
    public synchronized ChildJvm startScheduler() {
        if (scheduler != null && scheduler.isAlive()) {
            throw new IllegalStateException("a scheduler of " + name + " still runs: " + scheduler);
        }
        schedulerStarts++;
        Path log = dir.resolve("scheduler-" + schedulerStarts + ".log");
        schedulerLogs.add(log);
        scheduler = ChildJvm.start("scheduler#" + schedulerStarts, SCHEDULER_JVM,
                List.of("scheduler", "-c", properties.toString()), log);
        return scheduler;
    }

    /** Waits until the scheduler's status API says RUNNING. */
    public void awaitSchedulerRunning(Duration timeout) {
        ChildJvm current = scheduler;
        awaitWhileAlive(current, current.name() + " RUNNING", timeout,
                () -> status.health().filter("RUNNING"::equals).isPresent());
    }

    /** {@code kill -9} of the scheduler; returns when it is gone. */
    public synchronized Instant killScheduler() {
        Instant at = scheduler.kill9();
        LOG.info("{}: kill -9 {}", name, scheduler);
        return at;
    }

    public synchronized ChildJvm scheduler() {
        return scheduler;
    }

    /** The log files of every scheduler process so far. */
    public synchronized List<Path> schedulerLogs() {
        return List.copyOf(schedulerLogs);
    }

    /** How many lines of the schedulers' logs say a stream thread was replaced. */
    public long threadReplacements() {
        return LogFiles.countLines(schedulerLogs(), List.of(THREAD_REPLACED));
    }

    // ---------------------------------------------------------------- nodes

    /** Starts a node connector process (same id and work directory as a previous one of that id). */
    public synchronized ChildJvm startNode(NodeSpec spec) {
        ChildJvm previous = nodes.get(spec.nodeId());
        if (previous != null && previous.isAlive()) {
            throw new IllegalStateException("node " + spec.nodeId() + " still runs: " + previous);
        }
        int n = nodeStarts.merge(spec.nodeId(), 1, Integer::sum);
        List<String> args = new ArrayList<>(List.of("node", "-c", properties.toString(), "--node-id", spec.nodeId(),
                "--cell", CELL, "--backend", "simulated", "--gpus", Integer.toString(spec.gpus()), "--speed",
                Double.toString(spec.speed()), "--work-dir", dir.resolve("nodes").resolve(spec.nodeId()).toString()));
        if (spec.partitionable()) {
            args.addAll(List.of("--bootstrap", stack.partitionableBootstrapServers()));
        }
        ChildJvm node = ChildJvm.start("node " + spec.nodeId() + "#" + n, NODE_JVM, args,
                dir.resolve("node-" + spec.nodeId() + "-" + n + ".log"));
        nodes.put(spec.nodeId(), node);
        return node;
    }

    /** {@code kill -9} of a node connector; returns when it is gone. */
    public synchronized Instant killNode(String nodeId) {
        ChildJvm node = nodes.get(nodeId);
        Instant at = node.kill9();
        LOG.info("{}: kill -9 {}", name, node);
        return at;
    }

    public synchronized ChildJvm node(String nodeId) {
        return nodes.get(nodeId);
    }

    /** The epoch of the node's latest heartbeat seen, or -1. */
    public long latestEpoch(String nodeId) {
        return tail.heartbeats().stream().map(s -> s.value()).filter(h -> h.getNodeId().equals(nodeId))
                .mapToLong(NodeHeartbeat::getEpoch).max().orElse(-1);
    }

    /** Waits for a heartbeat of the node with an epoch above {@code epochAbove} (a new incarnation). */
    public void awaitHeartbeat(String nodeId, long epochAbove, Duration timeout) {
        awaitWhileAlive(node(nodeId), "a heartbeat of node " + nodeId + " with an epoch above " + epochAbove,
                timeout, () -> tail.anyHeartbeat(h -> h.getNodeId().equals(nodeId) && h.getEpoch() > epochAbove));
    }

    /** Waits until the scheduler knows every one of {@code nodeIds} as alive (its status API lists them). */
    public void awaitNodesAlive(List<String> nodeIds, Duration timeout) {
        awaitWhileAlive(scheduler(), "the scheduler lists " + nodeIds + " alive", timeout, () -> status.get("/nodes")
                .map(nodes -> {
                    java.util.Set<String> alive = new java.util.HashSet<>();
                    nodes.forEach(n -> {
                        if (n.path("alive").asBoolean()) {
                            alive.add(n.path("nodeId").asText());
                        }
                    });
                    return alive.containsAll(nodeIds);
                }).orElse(false));
    }

    /**
     * Waits for {@code condition}; fails at once, with the end of its log, when {@code child} exits meanwhile, and
     * with the end of its log on timeout.
     */
    public static void awaitWhileAlive(ChildJvm child, String description, Duration timeout,
                                       java.util.function.BooleanSupplier condition) {
        try {
            Await.until(description, timeout, () -> !child.isAlive() || condition.getAsBoolean());
        } catch (RuntimeException e) {
            throw new IllegalStateException(e.getMessage() + "; last lines of " + child.logFile() + ":\n"
                    + child.tail(30), e);
        }
        if (!child.isAlive() && !condition.getAsBoolean()) {
            throw new IllegalStateException("waiting for " + description + ": " + child + " exited with "
                    + child.exitCode() + "; last lines of its log:\n" + child.tail(30));
        }
    }

    // ---------------------------------------------------------------- the driver's records

    /** Sends a submission and waits for the broker's acknowledgement. */
    public RecordMetadata submit(JobSubmitted job) {
        try {
            return submissions().send(new ProducerRecord<>(topics.submissions().name(), job.getJobId(),
                    new JobRequest(job))).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("submission of " + job.getJobId() + " failed: " + e.getCause(), e);
        }
    }

    private synchronized KafkaProducer<String, JobRequest> submissions() {
        if (submissions == null) {
            submissions = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                    stack.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all",
                    ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.LINGER_MS_CONFIG, 0),
                    new StringSerializer(), topics.submissions().valueSerde().serializer());
        }
        return submissions;
    }

    /** A producer of raw bytes (values up to about 1.5 MB) for records the serdes would never write. */
    public synchronized KafkaProducer<byte[], byte[]> rawProducer() {
        if (raw == null) {
            raw = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers(),
                    ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                    ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 1_500_000, ProducerConfig.LINGER_MS_CONFIG, 5),
                    new ByteArraySerializer(), new ByteArraySerializer());
        }
        return raw;
    }

    /** Every child's log, for failure messages. */
    public synchronized String describeLogs() {
        StringBuilder b = new StringBuilder("logs of ").append(name).append(": ").append(dir);
        schedulerLogs.forEach(l -> b.append("\n  ").append(l));
        try (var files = Files.list(dir)) {
            files.filter(f -> f.getFileName().toString().startsWith("node-")).sorted()
                    .forEach(f -> b.append("\n  ").append(f));
        } catch (IOException e) {
            b.append("\n  (cannot list: ").append(e).append(')');
        }
        b.append("\n  registry: ").append(stack.registryLog());
        return b.toString();
    }

    /** Kills every child (the state is on disk for a post-mortem), closes the producers and the tail. */
    @Override
    public synchronized void close() {
        nodes.values().forEach(n -> n.stop(Duration.ZERO));
        if (scheduler != null) {
            scheduler.stop(Duration.ofSeconds(10));
        }
        if (submissions != null) {
            submissions.close(Duration.ofSeconds(5));
        }
        if (raw != null) {
            raw.close(Duration.ofSeconds(5));
        }
        if (tail != null) {
            tail.close();
        }
    }
}
