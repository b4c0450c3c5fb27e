package io.quanta.streams.app;

import io.quanta.core.policy.PolicyRegistry;
import io.quanta.streams.SchedulerSettings;
import io.quanta.streams.SchedulerTopology;
import io.quanta.streams.StoreOptions;
import io.quanta.streams.status.ActivityTail;
import io.quanta.streams.status.DeferredStateAccess;
import io.quanta.streams.status.StatusApi;
import io.quanta.streams.status.StatusQueries;
import io.quanta.streams.status.StatusSecurity;
import io.quanta.streams.status.StreamsStateAccess;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.TopicSpec;
import io.quanta.topics.config.QuantaConfig;
import io.quanta.topics.serde.AvroSerdeFactory;
import io.quanta.topics.serde.SerdeFactory;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.HostInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cell scheduler as a service: the topology with persistent stores under Kafka Streams (exactly-once), and the
 * HTTP status API with its dashboard (whose job timelines and dead letters an {@link ActivityTail} reads from the
 * output topics while someone looks). {@link #create} validates everything; {@link #start} checks the topics exist, binds the status API
 * and starts processing; {@link #close} stops both. Used by {@code quanta scheduler} and {@code quanta local}.
 *
 * <pre>{@code
 * try (SchedulerApp app = SchedulerApp.create(config)) {
 *     app.start();
 *     app.awaitRunning(Duration.ofSeconds(60));
 *     System.out.println("status API at " + app.statusApiAddress().orElseThrow());
 * }
 * }</pre>
 */
public final class SchedulerApp implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SchedulerApp.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration TOPICS_WAIT = Duration.ofSeconds(30);

    private final QuantaConfig config;
    private final SchedulerSettings settings;
    private final TopicCatalogue topics;
    private final Topology topology;
    private final StatusSecurity statusSecurity;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private KafkaStreams streams;
    private StatusApi statusApi;
    private ActivityTail activity;

    private SchedulerApp(QuantaConfig config, SchedulerSettings settings, TopicCatalogue topics, Topology topology,
                         StatusSecurity statusSecurity) {
        this.config = config;
        this.settings = settings;
        this.topics = topics;
        this.topology = topology;
        this.statusSecurity = statusSecurity;
    }

    /** The app of a configuration, talking to the configured schema registry; not started. */
    public static SchedulerApp create(QuantaConfig config) {
        return create(config, AvroSerdeFactory.from(config), PolicyRegistry.builtIn());
    }

    /** The app with explicit serdes (e.g. an in-memory registry) and policies; not started. */
    public static SchedulerApp create(QuantaConfig config, SerdeFactory serdes, PolicyRegistry policies) {
        SchedulerSettings settings = SchedulerSettings.from(config);
        TopicCatalogue topics = TopicCatalogue.from(config, serdes);
        Topology topology = SchedulerTopology.build(topics, settings, StoreOptions.persistent(), policies);
        StatusSecurity security = settings.statusEnabled() ? StatusSecurity.from(config) : StatusSecurity.none();
        return new SchedulerApp(config, settings, topics, topology, security);
    }

    /**
     * Checks the topics exist, binds the status API (when enabled) and starts Kafka Streams.
     *
     * @throws IllegalStateException when topics are missing (run {@code quanta topics apply})
     */
    public synchronized void start() {
        if (streams != null) {
            throw new IllegalStateException("scheduler already started");
        }
        requireTopics();
        Optional<HostInfo> self = Optional.empty();
        DeferredStateAccess holder = new DeferredStateAccess();
        if (settings.statusEnabled()) {
            activity = ActivityTail.of(config, topics, Clock.systemUTC());
            statusApi = StatusApi.start(new StatusQueries(holder), new InetSocketAddress(settings.statusHost(),
                    settings.statusPort()), () -> streams == null ? "CREATED" : streams.state().name(), activity,
                    statusSecurity);
            self = Optional.of(new HostInfo(settings.statusHost(), statusApi.address().getPort()));
        }
        Properties props = SchedulerStreamsConfig.of(config, settings, self.map(h -> h.host() + ":" + h.port()));
        props.putAll(SchedulerStreamsConfig.errorHandling(topics));
        SchedulerStreamsConfig.failoverWarning(props, settings.nodeTimeout()).ifPresent(LOG::warn);
        streams = new KafkaStreams(topology, props);
        self.ifPresent(h -> holder.bind(new StreamsStateAccess(streams, h)));
        streams.setStateListener((now, before) -> {
            LOG.info("scheduler {} -> {}", before, now);
            if (now == KafkaStreams.State.NOT_RUNNING || now == KafkaStreams.State.ERROR) {
                stopped.countDown();
            }
        });
        streams.setUncaughtExceptionHandler(e -> {
            LOG.error("scheduler stream thread failed; replacing it", e);
            return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse
                    .REPLACE_THREAD;
        });
        streams.start();
        LOG.info("scheduler {} started: policy {}, status API {}{}", settings.applicationId(),
                settings.policy().policyName(), statusApiUrl().orElse("off"), statusApi == null ? ""
                        : statusSecurity.tokenRequired() ? " (bearer token required)" : " (no authentication)");
    }

    /** Waits until Kafka Streams is RUNNING; false on timeout. */
    public boolean awaitRunning(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (streams != null && streams.state() == KafkaStreams.State.RUNNING) {
                return true;
            }
            try {
                if (stopped.await(20, TimeUnit.MILLISECONDS)) {
                    return false;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    /** Blocks until the app stops (closed, or Kafka Streams failed). */
    public void awaitStopped() throws InterruptedException {
        stopped.await();
    }

    /** The Kafka Streams state, {@code CREATED} before start. */
    public KafkaStreams.State state() {
        return streams == null ? KafkaStreams.State.CREATED : streams.state();
    }

    /** The status API's bound address, when it runs. */
    public Optional<InetSocketAddress> statusApiAddress() {
        return Optional.ofNullable(statusApi).map(StatusApi::address);
    }

    /**
     * The status API's base URL, {@code scheme://host:port} of the bound address ({@code https} when it serves TLS),
     * when it runs.
     */
    public Optional<String> statusApiUrl() {
        return Optional.ofNullable(statusApi).map(api -> api.scheme() + "://" + api.address().getHostString() + ":"
                + api.address().getPort());
    }

    /** Whether the status API asks every request for data for the bearer token. */
    public boolean statusApiNeedsToken() {
        return statusSecurity.tokenRequired();
    }

    /** The running Kafka Streams instance (metrics, state), when started. */
    public Optional<KafkaStreams> kafkaStreams() {
        return Optional.ofNullable(streams);
    }

    /** The settings in force. */
    public SchedulerSettings settings() {
        return settings;
    }

    /** The topology this app runs. */
    public Topology topology() {
        return topology;
    }

    /** Stops Kafka Streams (committing what it processed) and the status API. Idempotent. */
    @Override
    public synchronized void close() {
        if (streams != null) {
            // leave the group at once, so the other instances take the tasks over now, not after the session timeout
            streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                    .withTimeout(CLOSE_TIMEOUT));
        }
        if (statusApi != null) {
            statusApi.close();
            statusApi = null;
        }
        if (activity != null) {
            activity.close();
            activity = null;
        }
        stopped.countDown();
    }

    /** Fails unless every topic exists; topics created a moment ago may take a few seconds to be listed. */
    private void requireTopics() {
        List<String> wanted = topics.all().stream().map(TopicSpec::name).toList();
        long deadline = System.nanoTime() + TOPICS_WAIT.toNanos();
        try (Admin admin = Admin.create(config.kafkaClientProperties())) {
            while (true) {
                Set<String> existing = admin.listTopics().names().get(60, TimeUnit.SECONDS);
                List<String> missing = wanted.stream().filter(t -> !existing.contains(t)).toList();
                if (missing.isEmpty()) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("topics missing: " + String.join(", ", missing)
                            + "; create them with `quanta topics apply`");
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
            }
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot list topics at " + config.bootstrapServers() + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while listing topics", e);
        }
    }
}
