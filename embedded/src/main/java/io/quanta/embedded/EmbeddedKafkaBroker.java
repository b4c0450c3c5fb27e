package io.quanta.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.coordinator.group.GroupCoordinatorConfig;
import org.apache.kafka.coordinator.transaction.TransactionLogConfig;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;
import org.apache.kafka.server.record.BrokerCompressionType;

/**
 * A single-node Kafka cluster inside this JVM: one KRaft process acting as broker and controller, on loopback with
 * free ports, internal topics at replication factor 1, automatic topic creation off (create topics explicitly, e.g.
 * with {@code TopicsApply}). The data directory is a fresh temporary one, deleted on {@link #close()}, unless given.
 * With {@link Builder#security(BrokerSecurity)} clients connect over SASL_SSL (SCRAM-SHA-512) and need ACLs
 * ({@code StandardAuthorizer}); {@link #clientProperties(String)} gives a user's client settings.
 *
 * <pre>{@code
 * try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder().build().start()) {
 *     String bootstrap = broker.bootstrapServers();
 * }
 * }</pre>
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

    private static final int NODE_ID = 1;
    /** Partitions of each coordinator's internal topic (as {@code offsets.topic.num.partitions} below). */
    private static final int INTERNAL_TOPIC_PARTITIONS = 5;

    private final Path dataDir;
    private final int fixedBrokerPort;
    private final int fixedControllerPort;
    private final boolean deleteDataDir;
    private final Map<String, String> overrides;
    private final BrokerSecurity security;
    private KafkaRaftServer server;
    private Path resolvedDir;
    private String bootstrapServers;
    private Duration startupTime;

    private EmbeddedKafkaBroker(Builder builder) {
        this.deleteDataDir = builder.dataDir == null;
        this.dataDir = builder.dataDir;
        this.fixedBrokerPort = builder.brokerPort;
        this.fixedControllerPort = builder.controllerPort;
        this.overrides = Map.copyOf(builder.overrides);
        this.security = builder.security;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Formats the storage, starts the server and waits until it answers an admin request. */
    public synchronized EmbeddedKafkaBroker start() {
        if (server != null) {
            return this;
        }
        long began = System.nanoTime();
        Path dir = dataDir != null ? dataDir : tempDir();
        int brokerPort = fixedBrokerPort > 0 ? fixedBrokerPort : FreePorts.next();
        int controllerPort = fixedControllerPort > 0 ? fixedControllerPort : FreePorts.next();
        Properties props = properties(dir, brokerPort, controllerPort);
        if (!Files.exists(dir.resolve("meta.properties"))) {
            format(dir); // a kept data directory is formatted already (restart on the same data)
        }
        KafkaRaftServer started = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
        started.startup();
        this.server = started;
        this.bootstrapServers = "127.0.0.1:" + brokerPort;
        this.resolvedDir = dir;
        try (Admin admin = Admin.create(adminProperties())) {
            awaitReady(admin);
            createCoordinatorTopics(admin);
            if (security != null) {
                addMissingUsers(admin);
            }
        }
        this.startupTime = Duration.ofNanos(System.nanoTime() - began);
        return this;
    }

    /** {@code host:port} of the broker's client listener. */
    public String bootstrapServers() {
        if (bootstrapServers == null) {
            throw new IllegalStateException("broker not started");
        }
        return bootstrapServers;
    }

    /**
     * Settings for a Kafka client of {@code user}: {@code bootstrap.servers} plus, on a secured broker, the SASL_SSL
     * settings with the user's password (never print them). On a plaintext broker {@code user} is ignored.
     *
     * @throws IllegalArgumentException when the secured broker has no such user
     */
    public Map<String, String> clientProperties(String user) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        if (security != null) {
            p.putAll(security.clientProperties(user));
        }
        return p;
    }

    /** The authentication and authorization of this broker, when secured. */
    public Optional<BrokerSecurity> security() {
        return Optional.ofNullable(security);
    }

    /** How long {@link #start()} took (formatting included). */
    public Duration startupTime() {
        return startupTime;
    }

    /** The data directory (log dirs and metadata log). */
    public Path dataDir() {
        return resolvedDir;
    }

    /** Stops the server and deletes a temporary data directory. Idempotent. */
    @Override
    public synchronized void close() {
        if (server == null) {
            return;
        }
        server.shutdown();
        server.awaitShutdown();
        server = null;
        if (deleteDataDir && resolvedDir != null) {
            deleteRecursively(resolvedDir);
        }
    }

    private Properties properties(Path dir, int brokerPort, int controllerPort) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("process.roles", "broker,controller");
        p.put("node.id", Integer.toString(NODE_ID));
        p.put("controller.quorum.voters", NODE_ID + "@127.0.0.1:" + controllerPort);
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("log.dirs", dir.toString());
        p.put("num.partitions", "1");
        p.put("default.replication.factor", "1");
        p.put("min.insync.replicas", "1");
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", Integer.toString(INTERNAL_TOPIC_PARTITIONS));
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("transaction.state.log.num.partitions", Integer.toString(INTERNAL_TOPIC_PARTITIONS));
        // abort a crashed producer's timed-out transaction within a second of its timeout (Kafka checks every 10 s):
        // until then the partitions it wrote to stay unreadable for read_committed consumers, which is most of a
        // crashed scheduler's fail-over time (docs/scaling.md)
        p.put("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("auto.create.topics.enable", "false");
        p.put("log.cleaner.dedupe.buffer.size", Integer.toString(2 * 1024 * 1024));
        p.put("log.cleaner.threads", "1");
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "2");
        p.put("background.threads", "2");
        if (security != null) {
            p.putAll(security.brokerProperties(brokerPort, controllerPort));
        }
        p.putAll(overrides);
        Properties props = new Properties();
        props.putAll(p);
        return props;
    }

    private void format(Path dir) {
        try {
            Formatter formatter = new Formatter();
            if (security != null) {
                formatter.setScramArguments(security.scramArguments());
            }
            formatter
                    .setNodeId(NODE_ID)
                    .setClusterId(Uuid.randomUuid().toString())
                    .setDirectories(List.of(dir.toString()))
                    .setMetadataLogDirectory(dir.toString())
                    .setControllerListenerName("CONTROLLER")
                    .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
                    .setSupportedFeatures(Feature.PRODUCTION_FEATURES)
                    .setIgnoreFormatted(true)
                    .setPrintStream(new java.io.PrintStream(java.io.OutputStream.nullOutputStream(), false,
                            java.nio.charset.StandardCharsets.UTF_8))
                    .run();
        } catch (Exception e) {
            throw new IllegalStateException("Cannot format Kafka storage in " + dir + ": " + e.getMessage(), e);
        }
    }

    private Map<String, Object> adminProperties() {
        Map<String, Object> props = new LinkedHashMap<>(clientProperties(BrokerSecurity.ADMIN_USER));
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
        return props;
    }

    private void awaitReady(Admin admin) {
        Await.until("embedded broker " + bootstrapServers + " answers", Duration.ofSeconds(60), () -> {
            try {
                return !admin.describeCluster().nodes().get().isEmpty();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } catch (java.util.concurrent.ExecutionException e) {
                return false;
            }
        });
    }

    /**
     * Creates the coordinators' internal topics ({@code __consumer_offsets}, {@code __transaction_state}) now, with
     * the configs the broker gives them, and waits until the broker's metadata lists both. Left to the first clients,
     * the broker creates each on a coordinator lookup; several clients start at once (a scheduler's stream threads,
     * node connectors, the CLI), the broker asks the controller once per lookup until its metadata catches up, and it
     * logs a WARN for every request that lost ({@code TOPIC_ALREADY_EXISTS}): harmless, but a user starting
     * {@code quanta local} should see no warning. A lookup of our own would race its own retries the same way
     * (measured: up to 24 warnings per start), hence an explicit creation, as Kafka's own test harness does. On a
     * kept data directory both exist and nothing is created.
     */
    private static void createCoordinatorTopics(Admin admin) {
        Map<String, String> offsets = Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
                TopicConfig.SEGMENT_BYTES_CONFIG,
                Integer.toString(GroupCoordinatorConfig.OFFSETS_TOPIC_SEGMENT_BYTES_DEFAULT),
                TopicConfig.COMPRESSION_TYPE_CONFIG, BrokerCompressionType.PRODUCER.name);
        Map<String, String> transactions = Map.of(TopicConfig.CLEANUP_POLICY_CONFIG,
                TopicConfig.CLEANUP_POLICY_COMPACT, TopicConfig.SEGMENT_BYTES_CONFIG,
                Integer.toString(TransactionLogConfig.TRANSACTIONS_TOPIC_SEGMENT_BYTES_DEFAULT),
                TopicConfig.COMPRESSION_TYPE_CONFIG, BrokerCompressionType.UNCOMPRESSED.name,
                TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG, "false",
                TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, "1");
        Map<String, Map<String, String>> wanted = Map.of(Topic.GROUP_METADATA_TOPIC_NAME, offsets,
                Topic.TRANSACTION_STATE_TOPIC_NAME, transactions);
        Set<String> existing = internalTopics(admin);
        List<NewTopic> missing = wanted.entrySet().stream().filter(e -> !existing.contains(e.getKey()))
                .map(e -> new NewTopic(e.getKey(), Optional.of(INTERNAL_TOPIC_PARTITIONS), Optional.of((short) 1))
                        .configs(e.getValue()))
                .toList();
        if (!missing.isEmpty()) {
            createIgnoringExisting(admin, missing);
        }
        Await.until("internal topics " + wanted.keySet() + " listed", Duration.ofSeconds(60),
                () -> internalTopics(admin).containsAll(wanted.keySet()));
    }

    private static void createIgnoringExisting(Admin admin, List<NewTopic> topics) {
        try {
            admin.createTopics(topics).all().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating the internal topics", e);
        } catch (java.util.concurrent.ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create the internal topics: " + e.getCause(), e.getCause());
            }
        }
    }

    private static Set<String> internalTopics(Admin admin) {
        try {
            return admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while listing topics", e);
        } catch (java.util.concurrent.ExecutionException e) {
            return Set.of(); // not answering yet: asked again by the caller's wait
        }
    }

    /**
     * Users formatted into the storage exist already; a kept data directory formatted before a user was added gets
     * it now, through the Admin API as the admin.
     */
    private void addMissingUsers(Admin admin) {
        try {
            Set<String> existing = admin.describeUserScramCredentials().all().get().keySet();
            List<UserScramCredentialAlteration> missing = security.users().stream()
                    .filter(u -> !existing.contains(u))
                    .<UserScramCredentialAlteration>map(u -> new UserScramCredentialUpsertion(u,
                            new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), security.password(u)))
                    .toList();
            if (!missing.isEmpty()) {
                admin.alterUserScramCredentials(missing).all().get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while adding SCRAM users", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("cannot add SCRAM users to the broker: " + e.getCause(), e.getCause());
        }
    }

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("quanta-kafka-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Options of an {@link EmbeddedKafkaBroker}. */
    public static final class Builder {
        private Path dataDir;
        private int brokerPort;
        private int controllerPort;
        private final Map<String, String> overrides = new LinkedHashMap<>();
        private BrokerSecurity security;

        private Builder() {
        }

        /**
         * Listen on these ports instead of free ones, so that the broker can be stopped and started again at the same
         * address with the same {@link #dataDir(Path)} (broker-outage tests).
         */
        public Builder ports(int broker, int controller) {
            this.brokerPort = broker;
            this.controllerPort = controller;
            return this;
        }

        /** Keep data here (kept on close) instead of in a temporary directory. */
        public Builder dataDir(Path dir) {
            this.dataDir = dir;
            return this;
        }

        /**
         * Clients connect over SASL_SSL with SCRAM-SHA-512 as one of {@code security}'s users, and need ACLs (the
         * standard authorizer is on; the broker and the admin are super users). See {@link BrokerSecurity}.
         */
        public Builder security(BrokerSecurity value) {
            this.security = value;
            return this;
        }

        /** Any broker setting, overriding the defaults above (e.g. {@code auto.create.topics.enable=true}). */
        public Builder brokerProperty(String key, String value) {
            overrides.put(key, value);
            return this;
        }

        public EmbeddedKafkaBroker build() {
            return new EmbeddedKafkaBroker(this);
        }
    }
}
