package io.quanta.streams.status;

import io.quanta.streams.status.ActivityLog.DeadLetterEntry;
import io.quanta.streams.status.ActivityLog.Timeline;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.TopicSpec;
import io.quanta.topics.config.QuantaConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fills an {@link ActivityLog} from the scheduler's own topics (decisions, job statuses, telemetry, dead letters) with
 * one group-less, read-committed consumer on a daemon thread. It runs only while someone looks: the first query
 * starts it (reading the last {@value #BACKFILL} records of each partition, and waiting up to
 * {@link #FIRST_READ} for them), and it stops and forgets after {@link #IDLE} without a query, so a scheduler nobody
 * watches pays nothing. Every instance reads every partition, so any instance answers for the whole cluster.
 * Unreadable records are skipped and counted.
 */
public final class ActivityTail implements RecentActivity, AutoCloseable {

    /** Records read back from each partition when the tail starts. */
    public static final int BACKFILL = 2000;
    /** How long the first query waits for the backfill. */
    public static final Duration FIRST_READ = Duration.ofSeconds(3);
    /** The tail stops after this long without a query. */
    public static final Duration IDLE = Duration.ofMinutes(10);
    private static final Duration RETRY_AFTER_FAILURE = Duration.ofSeconds(30);
    private static final Logger LOG = LoggerFactory.getLogger(ActivityTail.class);

    private final Map<String, Object> consumerProperties;
    private final TopicCatalogue topics;
    private final Clock clock;
    private volatile ActivityLog log = new ActivityLog();
    private volatile long lastUsedMs;
    private final AtomicLong skipped = new AtomicLong();
    private Thread thread;
    private CountDownLatch caughtUp = new CountDownLatch(0);
    private long failedAtMs = Long.MIN_VALUE / 2;
    private boolean closed;
    private volatile KafkaConsumer<byte[], byte[]> consumer;

    private ActivityTail(Map<String, Object> consumerProperties, TopicCatalogue topics, Clock clock) {
        this.consumerProperties = consumerProperties;
        this.topics = topics;
        this.clock = clock;
    }

    /** A tail of the configured cluster's topics, not started. */
    public static ActivityTail of(QuantaConfig config, TopicCatalogue topics, Clock clock) {
        Map<String, Object> props = new HashMap<>(config.kafkaClientProperties());
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "quanta-status-activity-" + UUID.randomUUID().toString()
                .substring(0, 8));
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return new ActivityTail(props, topics, clock);
    }

    @Override
    public Optional<Timeline> timeline(String jobId) {
        return use().timeline(jobId);
    }

    @Override
    public List<DeadLetterEntry> deadLetters(int limit) {
        return use().deadLetters(limit);
    }

    /** Whether the tail reads now. */
    public synchronized boolean running() {
        return thread != null;
    }

    /** Records skipped because they could not be decoded. */
    public long skipped() {
        return skipped.get();
    }

    /** Marks a query, starts the tail when it does not run, and waits (bounded) for its first read. */
    private ActivityLog use() {
        lastUsedMs = clock.millis();
        CountDownLatch first;
        synchronized (this) {
            if (!closed && thread == null && clock.millis() - failedAtMs > RETRY_AFTER_FAILURE.toMillis()) {
                ActivityLog fresh = new ActivityLog();
                log = fresh;
                caughtUp = new CountDownLatch(1);
                CountDownLatch latch = caughtUp;
                thread = new Thread(() -> run(fresh, latch), "quanta-status-activity");
                thread.setDaemon(true);
                thread.start();
            }
            first = caughtUp;
        }
        try {
            first.await(FIRST_READ.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return log;
    }

    private void run(ActivityLog into, CountDownLatch first) {
        boolean failed = false;
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(consumerProperties, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer = c;
            Map<String, Consumer<byte[]>> handlers = handlers(into);
            Map<TopicPartition, Long> ends = assign(c, handlers.keySet());
            while (!stopping()) {
                for (ConsumerRecord<byte[], byte[]> record : c.poll(Duration.ofMillis(500))) {
                    dispatch(handlers, record);
                }
                if (first.getCount() > 0 && reached(c, ends)) {
                    first.countDown();
                }
            }
        } catch (WakeupException e) {
            LOG.debug("status activity tail stopped");
        } catch (RuntimeException e) {
            failed = true;
            LOG.warn("status API: cannot read recent activity (dashboard timelines and dead letters): {}",
                    e.toString());
        } finally {
            consumer = null;
            first.countDown();
            synchronized (this) {
                thread = null;
                if (failed) {
                    failedAtMs = clock.millis();
                }
            }
        }
    }

    /** True when closed, or idle for {@link #IDLE} (then the tail stops and its log is dropped). */
    private synchronized boolean stopping() {
        if (closed) {
            return true;
        }
        if (clock.millis() - lastUsedMs > IDLE.toMillis()) {
            log = new ActivityLog();
            return true;
        }
        return false;
    }

    private Map<String, Consumer<byte[]>> handlers(ActivityLog into) {
        Map<String, Consumer<byte[]>> out = new HashMap<>();
        out.put(topics.decisions().name(), decoding(topics.decisions(), into::decision));
        out.put(topics.status().name(), decoding(topics.status(), into::status));
        out.put(topics.telemetry().name(), decoding(topics.telemetry(), into::telemetry));
        out.put(topics.deadLetter().name(), decoding(topics.deadLetter(), into::deadLetter));
        return out;
    }

    private static <V> Consumer<byte[]> decoding(TopicSpec<String, V> spec, Consumer<V> target) {
        Deserializer<V> deserializer = spec.valueSerde().deserializer();
        return bytes -> {
            V value = deserializer.deserialize(spec.name(), bytes);
            if (value != null) {
                target.accept(value);
            }
        };
    }

    private void dispatch(Map<String, Consumer<byte[]>> handlers, ConsumerRecord<byte[], byte[]> record) {
        Consumer<byte[]> handler = handlers.get(record.topic());
        if (handler == null || record.value() == null) {
            return;
        }
        try {
            handler.accept(record.value());
        } catch (RuntimeException e) {
            skipped.incrementAndGet();
            LOG.debug("status activity: skipping unreadable record {}-{}@{}: {}", record.topic(), record.partition(),
                    record.offset(), e.toString());
        }
    }

    /** Assigns every partition of the topics at its end minus the backfill; returns the ends. */
    private static Map<TopicPartition, Long> assign(KafkaConsumer<byte[], byte[]> c, Iterable<String> topicNames) {
        List<TopicPartition> all = new ArrayList<>();
        for (String topic : topicNames) {
            List<PartitionInfo> infos = c.partitionsFor(topic, Duration.ofSeconds(30));
            if (infos == null || infos.isEmpty()) {
                throw new IllegalStateException("topic " + topic + " does not exist");
            }
            infos.forEach(p -> all.add(new TopicPartition(topic, p.partition())));
        }
        c.assign(all);
        Map<TopicPartition, Long> ends = c.endOffsets(all);
        Map<TopicPartition, Long> begins = c.beginningOffsets(all);
        for (TopicPartition p : all) {
            c.seek(p, Math.max(begins.get(p), ends.get(p) - BACKFILL));
        }
        return ends;
    }

    private static boolean reached(KafkaConsumer<byte[], byte[]> c, Map<TopicPartition, Long> ends) {
        for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
            if (c.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** Stops the tail. Idempotent. */
    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            closed = true;
            t = thread;
        }
        KafkaConsumer<byte[], byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
        if (t != null) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
