package io.quanta.chaos.observe;

import io.quanta.schemas.DeadLetter;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.TopicSpec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads every committed record of the scheduler's outputs and the connectors' heartbeats and events from the
 * beginning, while the run goes on, noting when each arrived: what the invariants are checked on afterwards, and the
 * driver's live view (has the job started? did the node come back?). Values it cannot decode (the fuzz) are counted
 * and skipped. Thread-safe snapshots.
 */
public final class TopicTail implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TopicTail.class);

    private final TopicCatalogue topics;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Thread thread;
    private final Map<String, Sink<?>> sinks = new HashMap<>();
    private final Sink<JobEvent> events;
    private final Sink<NodeCommand> commands;
    private final Sink<SchedulingDecision> decisions;
    private final Sink<JobStatus> statuses;
    private final Sink<DeadLetter> deadLetters;
    private final Sink<NodeHeartbeat> heartbeats;
    private final AtomicLong undecodable = new AtomicLong();
    private volatile boolean running = true;

    /**
     * @param kafka     consumer settings (bootstrap servers, ...)
     * @param topics    the topics and their serdes
     */
    public TopicTail(Properties kafka, TopicCatalogue topics) {
        this.topics = topics;
        this.events = sink(topics.events());
        this.commands = sink(topics.commands());
        this.decisions = sink(topics.decisions());
        this.statuses = sink(topics.status());
        this.deadLetters = sink(topics.deadLetter());
        this.heartbeats = sink(topics.heartbeats());
        Properties props = new Properties();
        props.putAll(kafka);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(4 * 1024 * 1024));
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        this.consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : sinks.keySet()) {
            consumer.partitionsFor(topic, Duration.ofSeconds(30))
                    .forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        this.thread = Thread.ofPlatform().daemon().name("chaos-tail").start(this::loop);
    }

    private <V> Sink<V> sink(TopicSpec<String, V> spec) {
        Sink<V> sink = new Sink<>(spec.valueSerde().deserializer());
        sinks.put(spec.name(), sink);
        return sink;
    }

    private void loop() {
        try {
            while (running) {
                var records = consumer.poll(Duration.ofMillis(100));
                long now = System.currentTimeMillis();
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    Sink<?> sink = sinks.get(r.topic());
                    if (sink != null && !sink.add(r, now)) {
                        undecodable.incrementAndGet();
                    }
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            LOG.error("topic tail stopped", e);
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    public List<Seen<JobEvent>> events() {
        return events.snapshot();
    }

    public List<Seen<NodeCommand>> commands() {
        return commands.snapshot();
    }

    public List<Seen<SchedulingDecision>> decisions() {
        return decisions.snapshot();
    }

    public List<Seen<JobStatus>> statuses() {
        return statuses.snapshot();
    }

    public List<Seen<DeadLetter>> deadLetters() {
        return deadLetters.snapshot();
    }

    public List<Seen<NodeHeartbeat>> heartbeats() {
        return heartbeats.snapshot();
    }

    /** Events matching {@code filter} (a cheap scan for the driver's waits). */
    public boolean anyEvent(Predicate<JobEvent> filter) {
        return events.any(filter);
    }

    public boolean anyHeartbeat(Predicate<NodeHeartbeat> filter) {
        return heartbeats.any(filter);
    }

    /** Values of the tailed topics that did not decode (fuzz on the heartbeats and events topics). */
    public long undecodable() {
        return undecodable.get();
    }

    public TopicCatalogue topics() {
        return topics;
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The decoded records of one topic, in the order read. */
    private static final class Sink<V> {
        private final Deserializer<V> deserializer;
        private final List<Seen<V>> seen = new ArrayList<>();

        Sink(Deserializer<V> deserializer) {
            this.deserializer = deserializer;
        }

        boolean add(ConsumerRecord<byte[], byte[]> r, long now) {
            if (r.value() == null) {
                return true; // a tombstone of the compacted status topic, or a null value from the fuzz
            }
            V value;
            try {
                value = deserializer.deserialize(r.topic(), r.value());
            } catch (RuntimeException e) {
                return false;
            }
            if (value == null) {
                return true;
            }
            String key = r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8);
            synchronized (this) {
                seen.add(new Seen<>(key, value, r.timestamp(), r.partition(), r.offset(), now));
            }
            return true;
        }

        synchronized List<Seen<V>> snapshot() {
            return List.copyOf(seen);
        }

        synchronized boolean any(Predicate<V> filter) {
            for (Seen<V> s : seen) {
                if (filter.test(s.value())) {
                    return true;
                }
            }
            return false;
        }
    }
}
