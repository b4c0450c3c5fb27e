package io.quanta.cli.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.quanta.cli.observe.ClusterObserver;
import io.quanta.cli.observe.ClusterObserver.Start;
import io.quanta.cli.observe.ClusterObserver.Topic;
import io.quanta.cli.observe.ClusterView;
import io.quanta.cli.observe.RecordSink;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.config.QuantaConfig;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Follows the cluster (a {@link ClusterObserver} over the status, decisions, dead-letter and heartbeat topics) into a
 * {@link ClusterView} (plus the job events and telemetry when extra sinks want them), with the {@link ClusterMetrics}
 * on a registry when one is given, and Kafka Streams' own
 * metrics (consumer lag, process and commit rates and latencies, ...) when a streams instance is given.
 */
public final class ClusterMonitor implements AutoCloseable {

    /** Queue levels exported as gauges (policies use up to this many). */
    public static final int QUEUE_LEVELS = 8;

    private final ClusterView view;
    private final ClusterObserver observer;
    private final Optional<KafkaStreamsMetrics> streamsMetrics;

    private ClusterMonitor(ClusterView view, ClusterObserver observer, Optional<KafkaStreamsMetrics> streamsMetrics) {
        this.view = view;
        this.observer = observer;
        this.streamsMetrics = streamsMetrics;
    }

    /**
     * Starts following.
     *
     * @param registry where metrics go, if anywhere
     * @param streams the scheduler's Kafka Streams instance, if this process runs one
     * @param extra more sinks fed by the same observer (e.g. a workload recorder)
     */
    public static ClusterMonitor start(QuantaConfig config, TopicCatalogue topics, Optional<MeterRegistry> registry,
                                       Optional<KafkaStreams> streams, List<RecordSink> extra, Clock clock) {
        ClusterView view = new ClusterView(10);
        List<RecordSink> sinks = new ArrayList<>(List.of(view));
        registry.ifPresent(r -> sinks.add(new ClusterMetrics(r, view).withQueueLevels(r, QUEUE_LEVELS)));
        sinks.addAll(extra);
        Map<Topic, Start> starts = new EnumMap<>(Topic.class);
        starts.put(Topic.STATUS, Start.BEGINNING);
        starts.put(Topic.DECISIONS, Start.END);
        starts.put(Topic.DEADLETTER, Start.END);
        starts.put(Topic.HEARTBEATS, Start.LAST_MINUTE);
        if (!extra.isEmpty()) {
            starts.put(Topic.EVENTS, Start.END);
            starts.put(Topic.TELEMETRY, Start.END);
        }
        ClusterObserver observer = new ClusterObserver(config, topics, starts, sinks, clock).start();
        Optional<KafkaStreamsMetrics> bound = Optional.empty();
        if (registry.isPresent() && streams.isPresent()) {
            KafkaStreamsMetrics metrics = new KafkaStreamsMetrics(streams.get());
            metrics.bindTo(registry.get());
            bound = Optional.of(metrics);
        }
        return new ClusterMonitor(view, observer, bound);
    }

    /** The live view of the cluster. */
    public ClusterView view() {
        return view;
    }

    /** The observer (to wait for its initial read). */
    public ClusterObserver observer() {
        return observer;
    }

    @Override
    public void close() {
        observer.close();
        streamsMetrics.ifPresent(KafkaStreamsMetrics::close);
    }
}
