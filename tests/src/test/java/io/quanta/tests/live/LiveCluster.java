package io.quanta.tests.live;

import io.quanta.embedded.KafkaStack;
import io.quanta.node.NodeConfigSection;
import io.quanta.node.NodeConnector;
import io.quanta.streams.SchedulerConfigSection;
import io.quanta.streams.app.SchedulerApp;
import io.quanta.topics.QuantaTopic;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.TopicSpec;
import io.quanta.topics.admin.TopicsApply;
import io.quanta.topics.config.QuantaConfig;
import io.quanta.topics.serde.AvroSerdeFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;

/**
 * The fixture of the integration tests that run the scheduler app against a real broker and registry: settings with
 * topic names under a fresh prefix (so tests sharing a broker never meet), the topics applied, node connectors on the
 * simulated backend, tails of topics, and the status API over HTTP. Closing it closes the connectors and tails it
 * started, newest first.
 */
public final class LiveCluster implements AutoCloseable {

    private final KafkaStack stack;
    private final Path dir;
    private final Map<String, String> values = new HashMap<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final TopicCatalogue topics;

    private LiveCluster(KafkaStack stack, Path dir, String stem, Map<String, String> overrides) {
        this.stack = stack;
        this.dir = dir;
        String prefix = stem + UUID.randomUUID().toString().substring(0, 8) + ".";
        for (QuantaTopic topic : QuantaTopic.values()) {
            values.put(topic.nameKey(), prefix + topic.defaultName());
        }
        values.put("bootstrap.servers", stack.bootstrapServers());
        values.put("schema.registry.url", stack.registryUrl());
        values.put(SchedulerConfigSection.APPLICATION_ID, prefix + "scheduler");
        values.put(SchedulerConfigSection.POLICY, "fifo");
        values.put(SchedulerConfigSection.PASS_INTERVAL_MS, "1000");
        values.put(SchedulerConfigSection.STATUS_PORT, "0");
        values.putAll(overrides);
        QuantaConfig config = QuantaConfig.of(values);
        topics = TopicCatalogue.from(config, AvroSerdeFactory.from(config));
    }

    /** A fixture whose topics and application id start with {@code stem}, files under {@code dir}; topics applied. */
    public static LiveCluster create(KafkaStack stack, Path dir, String stem) throws Exception {
        return create(stack, dir, stem, Map.of());
    }

    /** As {@link #create(KafkaStack, Path, String)}, with {@code overrides} over the default settings. */
    public static LiveCluster create(KafkaStack stack, Path dir, String stem, Map<String, String> overrides)
            throws Exception {
        LiveCluster cluster = new LiveCluster(stack, dir, stem, overrides);
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", stack.bootstrapServers()))) {
            new TopicsApply(admin, Duration.ofSeconds(30)).apply(cluster.topics.all());
        }
        return cluster;
    }

    /** The topics, with serdes on the registry. */
    public TopicCatalogue topics() {
        return topics;
    }

    /** A copy of the settings every component gets (fifo, 1 s passes, status API on a free port). */
    public Map<String, String> settings() {
        return new HashMap<>(values);
    }

    /** Starts a scheduler instance (not closed by the fixture) with its state under {@code stateDir} of the files. */
    public SchedulerApp startApp(String stateDir, Duration wait) {
        return startApp(stateDir, Map.of(), wait);
    }

    /** As {@link #startApp(String, Duration)}, with {@code overrides} over the fixture's settings. */
    public SchedulerApp startApp(String stateDir, Map<String, String> overrides, Duration wait) {
        Map<String, String> all = settings();
        all.putAll(overrides);
        all.put(SchedulerConfigSection.STATE_DIR, dir.resolve(stateDir).toString());
        SchedulerApp started = SchedulerApp.create(QuantaConfig.of(all));
        started.start();
        if (!started.awaitRunning(wait)) {
            started.close();
            throw new IllegalStateException("scheduler not RUNNING within " + wait);
        }
        return started;
    }

    /**
     * Starts a node connector with 4 simulated GPUs at 100 times real speed in {@code cell}; {@code extra} settings
     * (Kafka client properties pass through to its clients) override the defaults.
     */
    public NodeConnector startNode(String nodeId, String cell, Map<String, String> extra) {
        Map<String, String> all = settings();
        all.put(NodeConfigSection.ID, nodeId);
        all.put(NodeConfigSection.CELL, cell);
        all.put(NodeConfigSection.RACK, "rack-1");
        all.put(NodeConfigSection.BACKEND, "simulated");
        all.put(NodeConfigSection.GPUS, "4");
        all.put(NodeConfigSection.SIM_SPEED, "100");
        all.put(NodeConfigSection.HEARTBEAT_INTERVAL_MS, "300");
        all.put(NodeConfigSection.TELEMETRY_WINDOW_MS, "500");
        all.put(NodeConfigSection.WORK_DIR, dir.resolve(nodeId).toString());
        all.putAll(extra);
        NodeConnector node = NodeConnector.create(QuantaConfig.of(all));
        node.start();
        closeables.add(node);
        return node;
    }

    /** A tail of {@code topic} from its beginning, closed with the fixture. */
    public <V> Tail<V> tail(TopicSpec<String, V> topic) {
        Tail<V> tail = new Tail<>(stack.bootstrapServers(), topic);
        closeables.add(tail);
        return tail;
    }

    /** Closes {@code closeable} with the fixture (before what was registered earlier). */
    public <T extends AutoCloseable> T closeLater(T closeable) {
        closeables.add(closeable);
        return closeable;
    }

    /** {@code GET path} on an instance's status API: the status code, a space, the body. */
    public static String get(SchedulerApp instance, String path) {
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                    "http://127.0.0.1:" + instance.statusApiAddress().orElseThrow().getPort() + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() + " " + response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws Exception {
        for (AutoCloseable c : closeables.reversed()) {
            c.close();
        }
        closeables.clear();
    }
}
