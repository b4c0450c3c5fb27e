package io.quanta.cli.observe;

import io.quanta.schemas.DeadLetter;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.JobTelemetry;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.TopicSpec;
import io.quanta.topics.config.QuantaConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the scheduler's outputs and the nodes' records on one thread with one group-less, read-committed consumer,
 * and hands each decoded record to the {@link RecordSink}s: the basis of {@code quanta local}'s live progress and
 * report, and of the cluster metrics. Each topic starts where its {@link Start} says; unreadable records are counted
 * and skipped. {@link #close()} stops the thread and the consumer.
 */
public final class ClusterObserver implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterObserver.class);

    /** Where to start reading a topic. */
    public enum Start {
        /** From the first record (compacted status topic; a whole run's history). */
        BEGINNING,
        /** Only records written from now on. */
        END,
        /** Records of the last minute, then new ones (heartbeats). */
        LAST_MINUTE
    }

    private final QuantaConfig config;
    private final Map<String, Handler<?>> handlers = new LinkedHashMap<>();
    private final Map<String, Start> starts = new LinkedHashMap<>();
    private final List<RecordSink> sinks;
    private final Clock clock;
    private final CountDownLatch caughtUp = new CountDownLatch(1);
    private volatile boolean running = true;
    private volatile KafkaConsumer<String, byte[]> consumer;
    private Thread thread;
    private long malformed;

    /**
     * @param starts which topics to follow and from where (topics absent are not read)
     * @param sinks who receives the records
     */
    public ClusterObserver(QuantaConfig config, TopicCatalogue topics, Map<Topic, Start> starts,
                           List<RecordSink> sinks, Clock clock) {
        this.config = config;
        this.sinks = List.copyOf(sinks);
        this.clock = clock;
        starts.forEach((topic, start) -> {
            TopicSpec<String, ?> spec = topic.spec(topics);
            this.starts.put(spec.name(), start);
            this.handlers.put(spec.name(), handler(topic, spec));
        });
    }

    /** The topics an observer can follow. */
    public enum Topic {
        STATUS, DECISIONS, DEADLETTER, HEARTBEATS, EVENTS, TELEMETRY, COMMANDS;

        TopicSpec<String, ?> spec(TopicCatalogue c) {
            return switch (this) {
                case STATUS -> c.status();
                case DECISIONS -> c.decisions();
                case DEADLETTER -> c.deadLetter();
                case HEARTBEATS -> c.heartbeats();
                case EVENTS -> c.events();
                case TELEMETRY -> c.telemetry();
                case COMMANDS -> c.commands();
            };
        }
    }

    /** Starts the observing thread; returns at once. */
    public synchronized ClusterObserver start() {
        if (thread == null) {
            thread = new Thread(this::run, "quanta-cluster-observer");
            thread.setDaemon(true);
            thread.start();
        }
        return this;
    }

    /** Waits until the initial read is complete; false when {@code timeout} passed first. */
    public boolean awaitCaughtUp(Duration timeout) throws InterruptedException {
        return caughtUp.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Records that could not be decoded (skipped). */
    public long malformed() {
        return malformed;
    }

    @Override
    public void close() {
        running = false;
        KafkaConsumer<String, byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
        Thread t = thread;
        if (t != null) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void run() {
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(properties(), new StringDeserializer(),
                new ByteArrayDeserializer())) {
            consumer = c;
            Map<TopicPartition, Long> initialEnds = assign(c);
            while (running) {
                for (ConsumerRecord<String, byte[]> record : c.poll(Duration.ofMillis(200))) {
                    dispatch(record);
                }
                if (caughtUp.getCount() > 0 && reached(c, initialEnds)) {
                    sinks.forEach(RecordSink::caughtUp);
                    caughtUp.countDown();
                }
            }
        } catch (WakeupException e) {
            LOG.debug("cluster observer stopped");
        } catch (RuntimeException e) {
            if (running) {
                LOG.error("cluster observer stopped on an error", e);
            }
        } finally {
            consumer = null;
            caughtUp.countDown();
        }
    }

    private Map<TopicPartition, Long> assign(KafkaConsumer<String, byte[]> c) {
        List<TopicPartition> all = new ArrayList<>();
        Map<String, List<TopicPartition>> byTopic = new LinkedHashMap<>();
        for (String topic : handlers.keySet()) {
            List<PartitionInfo> infos = c.partitionsFor(topic, Duration.ofSeconds(30));
            if (infos == null || infos.isEmpty()) {
                throw new IllegalStateException("topic " + topic + " does not exist: run 'quanta topics apply'");
            }
            List<TopicPartition> parts = infos.stream().map(p -> new TopicPartition(topic, p.partition())).toList();
            byTopic.put(topic, parts);
            all.addAll(parts);
        }
        c.assign(all);
        Map<TopicPartition, Long> ends = c.endOffsets(all);
        byTopic.forEach((topic, parts) -> {
            switch (starts.get(topic)) {
                case BEGINNING -> c.seekToBeginning(parts);
                case END -> parts.forEach(p -> c.seek(p, ends.get(p)));
                case LAST_MINUTE -> {
                    Map<TopicPartition, Long> query = new HashMap<>();
                    long since = clock.instant().minusSeconds(60).toEpochMilli();
                    parts.forEach(p -> query.put(p, since));
                    Map<TopicPartition, OffsetAndTimestamp> found = c.offsetsForTimes(query);
                    parts.forEach(p -> c.seek(p, found.get(p) == null ? ends.get(p) : found.get(p).offset()));
                }
            }
        });
        return ends;
    }

    private static boolean reached(KafkaConsumer<String, byte[]> c, Map<TopicPartition, Long> ends) {
        for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
            if (c.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    private void dispatch(ConsumerRecord<String, byte[]> record) {
        Handler<?> handler = handlers.get(record.topic());
        if (handler == null || record.value() == null) {
            return;
        }
        try {
            handler.handle(record.topic(), record.value());
        } catch (RuntimeException e) {
            malformed++;
            LOG.debug("skipping unreadable record {}-{}@{}: {}", record.topic(), record.partition(), record.offset(),
                    e.toString());
        }
    }

    private Map<String, Object> properties() {
        Map<String, Object> props = new HashMap<>(config.kafkaClientProperties());
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "quanta-observer-" + UUID.randomUUID().toString().substring(0, 8));
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return props;
    }

    @SuppressWarnings("unchecked")
    private Handler<?> handler(Topic topic, TopicSpec<String, ?> spec) {
        return switch (topic) {
            case STATUS -> new Handler<>((Deserializer<JobStatus>) spec.valueSerde().deserializer(),
                    v -> sinks.forEach(s -> s.status(v)));
            case DECISIONS -> new Handler<>((Deserializer<SchedulingDecision>) spec.valueSerde().deserializer(),
                    v -> sinks.forEach(s -> s.decision(v)));
            case DEADLETTER -> new Handler<>((Deserializer<DeadLetter>) spec.valueSerde().deserializer(),
                    v -> sinks.forEach(s -> s.deadLetter(v)));
            case HEARTBEATS -> new Handler<>((Deserializer<NodeHeartbeat>) spec.valueSerde().deserializer(),
                    v -> sinks.forEach(s -> s.heartbeat(v)));
            case EVENTS -> new Handler<>((Deserializer<JobEvent>) spec.valueSerde().deserializer(),
                    v -> sinks.forEach(s -> s.event(v)));
            case TELEMETRY -> new Handler<>((Deserializer<JobTelemetry>) spec.valueSerde().deserializer(),
                    v -> sinks.forEach(s -> s.telemetry(v)));
            case COMMANDS -> new Handler<>((Deserializer<NodeCommand>) spec.valueSerde().deserializer(),
                    v -> sinks.forEach(s -> s.command(v)));
        };
    }

    /** Decodes one topic's values and passes them on. */
    private record Handler<V>(Deserializer<V> deserializer, Consumer<V> target) {
        void handle(String topic, byte[] bytes) {
            V value = deserializer.deserialize(topic, bytes);
            if (value != null) {
                target.accept(value);
            }
        }
    }
}
