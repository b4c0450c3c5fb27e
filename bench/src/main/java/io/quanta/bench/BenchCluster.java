package io.quanta.bench;

import io.quanta.chaos.infra.ChildJvm;
import io.quanta.chaos.infra.Ports;
import io.quanta.chaos.infra.StatusApi;
import io.quanta.cli.metrics.MetricsConfigSection;
import io.quanta.cli.setup.ClusterSetup;
import io.quanta.embedded.Await;
import io.quanta.streams.SchedulerConfigSection;
import io.quanta.topics.QuantaTopic;
import io.quanta.topics.TopicCatalogue;
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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import org.apache.kafka.common.utils.Utils;

/**
 * One benchmark run's Quanta deployment on the shared {@link Infrastructure}: its own topics ({@code <name>.quanta...},
 * {@code partitions} each), application id and cells (one tenant per cell routes submissions), and scheduler
 * instances started as separate processes ({@code quanta scheduler -c <file>}), each with its own status port, state
 * directory and client id.
 */
public final class BenchCluster implements AutoCloseable {

    private static final List<String> SCHEDULER_JVM = List.of("-Xms256m", "-Xmx1g");
    /** Extra JVM options of every scheduler process (a profiler, a GC), e.g. {@code -XX:StartFlightRecording}. */
    private static final String SCHEDULER_JVM_ENV = "QUANTA_BENCH_SCHEDULER_JAVA_OPTS";

    private final String name;
    private final Path dir;
    private final Map<String, String> settings;
    private final QuantaConfig config;
    private final TopicCatalogue topics;
    private final List<String> cells;
    private final List<Instance> instances = new ArrayList<>();

    /** A scheduler instance: its process (replaced on restart), status API and settings file. */
    public static final class Instance {
        private final String id;
        private final Path properties;
        private final StatusApi status;
        private final Path log;
        private ChildJvm process;

        Instance(String id, Path properties, StatusApi status, Path log) {
            this.id = id;
            this.properties = properties;
            this.status = status;
            this.log = log;
        }

        public String id() {
            return id;
        }

        public ChildJvm process() {
            return process;
        }

        public StatusApi status() {
            return status;
        }

        /** True when its Kafka Streams answers RUNNING. */
        public boolean running() {
            return process != null && process.isAlive() && status.health().map("RUNNING"::equals).orElse(false);
        }
    }

    private BenchCluster(String name, Path dir, Map<String, String> settings, List<String> cells) {
        this.name = name;
        this.dir = dir;
        this.settings = settings;
        this.config = QuantaConfig.of(settings);
        this.topics = TopicCatalogue.from(config, AvroSerdeFactory.from(config));
        this.cells = cells;
    }

    /**
     * Creates the topics and schemas of a new deployment named {@code name}; nothing runs yet.
     *
     * @param cells      number of cells, named so that each has an inbox partition of its own when possible
     * @param extra      scheduler settings on top of the benchmark's (any Quanta key or Kafka client property)
     */
    public static BenchCluster create(Infrastructure infra, Path runDir, String name, int partitions, int cells,
                                      Map<String, String> extra) {
        AvroTrust.trustQuantaSchemas();
        Path dir = runDir.resolve(name);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> cellIds = cellIds(cells, partitions);
        Map<String, String> s = new LinkedHashMap<>();
        s.put(ConnectionConfigSection.BOOTSTRAP_SERVERS, infra.bootstrapServers());
        s.put(ConnectionConfigSection.REGISTRY_URL, infra.registryUrl());
        s.put("topic.replication.factor", "1");
        for (QuantaTopic topic : QuantaTopic.values()) {
            s.put(topic.nameKey(), name + "." + topic.defaultName());
            if (topic != QuantaTopic.DEADLETTER && topic != QuantaTopic.ADMISSIONS) {
                s.put(topic.partitionsKey(), Integer.toString(partitions));
            }
        }
        s.put(SchedulerConfigSection.APPLICATION_ID, name + "-scheduler");
        s.put(SchedulerConfigSection.DEFAULT_CELL, cellIds.getFirst());
        List<String> routes = new ArrayList<>();
        for (int i = 0; i < cellIds.size(); i++) {
            routes.add(tenant(i) + ":" + cellIds.get(i));
        }
        s.put(SchedulerConfigSection.TENANT_CELLS, String.join(",", routes));
        s.put(SchedulerConfigSection.STATUS_HOST, "127.0.0.1");
        s.put(MetricsConfigSection.ENABLED, "false");
        s.putAll(extra);
        BenchCluster cluster = new BenchCluster(name, dir, s, cellIds);
        ClusterSetup.applyTopics(cluster.config);
        ClusterSetup.applySchemas(cluster.config);
        return cluster;
    }

    /** The tenant whose submissions go to cell {@code i}. */
    public static String tenant(int i) {
        return "t" + i;
    }

    /**
     * {@code count} cell ids whose inbox partitions (the default partitioner's, on the id) differ while there are
     * partitions left, so that each cell is a task of its own and instances can split them.
     */
    static List<String> cellIds(int count, int partitions) {
        List<String> out = new ArrayList<>();
        TreeSet<Integer> used = new TreeSet<>();
        for (int n = 0; out.size() < count && n < 10_000; n++) {
            String id = "cell-" + n;
            int partition = Utils.toPositive(Utils.murmur2(id.getBytes(StandardCharsets.UTF_8))) % partitions;
            if (used.size() >= partitions || used.add(partition)) {
                out.add(id);
            }
        }
        return out;
    }

    /** Starts one more scheduler instance and returns it (without waiting for it). */
    public Instance addInstance() {
        String id = "s" + (instances.size() + 1);
        int port = Ports.free();
        Map<String, String> own = new LinkedHashMap<>(settings);
        own.put(SchedulerConfigSection.STATUS_PORT, Integer.toString(port));
        own.put(SchedulerConfigSection.STATE_DIR, dir.resolve("state-" + id).toString());
        own.put("client.id", name + "-" + id);
        Path file = dir.resolve("scheduler-" + id + ".properties");
        Properties p = new Properties();
        p.putAll(own);
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            p.store(w, "bench scheduler " + id);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Instance instance = new Instance(id, file, new StatusApi(port), dir.resolve("scheduler-" + id + ".log"));
        instances.add(instance);
        start(instance);
        return instance;
    }

    /** Starts (again) the instance's process with its settings file and state directory. */
    public void start(Instance instance) {
        List<String> jvm = new ArrayList<>(SCHEDULER_JVM);
        String extra = System.getenv(SCHEDULER_JVM_ENV);
        if (extra != null && !extra.isBlank()) {
            jvm.addAll(List.of(extra.trim().replace("{id}", instance.id).split("\\s+")));
        }
        instance.process = ChildJvm.start("scheduler " + instance.id, jvm,
                List.of("scheduler", "-c", instance.properties.toString()), instance.log);
    }

    /** Waits until every instance answers RUNNING. */
    public void awaitRunning(Duration timeout) {
        Await.until("scheduler instances of " + name + " RUNNING", timeout, () -> {
            for (Instance i : instances) {
                if (!i.process.isAlive()) {
                    throw new IllegalStateException("scheduler " + i.id + " exited: " + i.process.tail(40));
                }
            }
            return instances.stream().allMatch(Instance::running);
        });
    }

    /** The cell's summary as any live instance answers it (it forwards to the owner). */
    public java.util.Optional<com.fasterxml.jackson.databind.JsonNode> summary(String cell) {
        for (Instance i : instances) {
            if (i.process != null && i.process.isAlive()) {
                var s = i.status.summary(cell);
                if (s.isPresent()) {
                    return s;
                }
            }
        }
        return java.util.Optional.empty();
    }

    /** Waits until every cell lists {@code gpusPerCell} GPUs (its simulated nodes registered). */
    public void awaitGpus(int gpusPerCell, Duration timeout) {
        for (String cell : cells) {
            Await.until(cell + " lists " + gpusPerCell + " GPUs", timeout, () -> summary(cell)
                    .map(s -> s.path("gpusTotal").asInt() >= gpusPerCell).orElse(false));
        }
    }

    public String name() {
        return name;
    }

    public Path dir() {
        return dir;
    }

    public QuantaConfig config() {
        return config;
    }

    public TopicCatalogue topics() {
        return topics;
    }

    public List<String> cells() {
        return cells;
    }

    public List<Instance> instances() {
        return instances;
    }

    /** The scheduler's Kafka Streams application id (its consumer group). */
    public String applicationId() {
        return settings.get(SchedulerConfigSection.APPLICATION_ID);
    }

    public String bootstrapServers() {
        return settings.get(ConnectionConfigSection.BOOTSTRAP_SERVERS);
    }

    @Override
    public void close() {
        for (Instance i : instances) {
            if (i.process != null) {
                i.process.stop(Duration.ofSeconds(20));
            }
        }
    }
}
