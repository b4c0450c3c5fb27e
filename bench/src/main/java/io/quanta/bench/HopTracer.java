package io.quanta.bench;

import io.quanta.chaos.observe.Stats;
import io.quanta.schemas.CellInput;
import io.quanta.schemas.JobSubmitted;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeCommandType;
import io.quanta.topics.TopicCatalogue;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Where a submission's time to START goes, hop by hop ({@code bench/run latency --trace-hops}): four consumers in the
 * driver note when each measured job first appears on the inbox and on the commands topic, once as appended
 * ({@code read_uncommitted}) and once as committed ({@code read_committed}, what the next hop and the nodes see).
 * With the submission's send time and its broker append time (LogAppendTime) this splits the latency into: the
 * produce, the router's processing, the router's transaction commit, the cell's processing and the cell's
 * transaction commit. Each "seen" time carries up to one poll (5 ms) of this driver's own delay.
 */
final class HopTracer implements AutoCloseable {

    /** The hops, in order; each is the time from the previous point to this one. */
    private static final List<String> HOPS = List.of("produce (sent to appended)",
            "router processing (to inbox appended)", "router commit (to inbox committed)",
            "cell processing (to START appended)", "cell commit (to START committed)");

    private final Map<String, Long> inboxAppended = new ConcurrentHashMap<>();
    private final Map<String, Long> inboxCommitted = new ConcurrentHashMap<>();
    private final Map<String, Long> startAppended = new ConcurrentHashMap<>();
    private final Map<String, Long> startCommitted = new ConcurrentHashMap<>();
    private final List<Thread> readers = new ArrayList<>();
    private volatile boolean closed;

    HopTracer(String bootstrap, TopicCatalogue topics, String prefix) {
        Function<CellInput, String> submitted = in -> in.getInput() instanceof JobSubmitted s
                ? s.getJobId().toString() : null;
        Function<NodeCommand, String> start = c -> c.getType() == NodeCommandType.START
                ? c.getJobId().toString() : null;
        String inbox = topics.inbox().name();
        String commands = topics.commands().name();
        readers.add(reader(bootstrap, inbox, "read_uncommitted", topics.inbox().valueSerde().deserializer(),
                submitted, prefix, inboxAppended));
        readers.add(reader(bootstrap, inbox, "read_committed", topics.inbox().valueSerde().deserializer(),
                submitted, prefix, inboxCommitted));
        readers.add(reader(bootstrap, commands, "read_uncommitted", topics.commands().valueSerde().deserializer(),
                start, prefix, startAppended));
        readers.add(reader(bootstrap, commands, "read_committed", topics.commands().valueSerde().deserializer(),
                start, prefix, startCommitted));
        readers.forEach(Thread::start);
    }

    private <V> Thread reader(String bootstrap, String topic, String isolation, Deserializer<V> values,
                              Function<V, String> jobOf, String prefix, Map<String, Long> seen) {
        KafkaConsumer<String, V> consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap, ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation, ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG,
                5, ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000), new StringDeserializer(), values);
        List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position);
        Thread t = new Thread(() -> {
            try (consumer) {
                while (!closed) {
                    var polled = consumer.poll(Duration.ofMillis(5));
                    long now = System.currentTimeMillis();
                    for (ConsumerRecord<String, V> r : polled) {
                        String job = jobOf.apply(r.value());
                        if (job != null && job.startsWith(prefix)) {
                            seen.putIfAbsent(job, now);
                        }
                    }
                }
            }
        }, "hop-tracer-" + topic + "-" + isolation);
        t.setDaemon(true);
        return t;
    }

    /** True once the START of {@code jobId} was seen committed. */
    boolean sawStart(String jobId) {
        return startCommitted.containsKey(jobId);
    }

    /**
     * The hops of the measured jobs: median and max over all of them and over the slowest 1 % (by the time from
     * send to START committed), then the slowest ten one by one.
     */
    Table table(List<String> ids, Map<String, Long> sentWallMs, Map<String, Long> appendedMs) {
        List<long[]> traced = new ArrayList<>();
        for (String id : ids) {
            Long[] points = {sentWallMs.get(id), appendedMs.get(id), inboxAppended.get(id), inboxCommitted.get(id),
                    startAppended.get(id), startCommitted.get(id)};
            if (Arrays.stream(points).allMatch(Objects::nonNull)) {
                long[] hops = new long[HOPS.size() + 2];
                hops[HOPS.size() + 1] = points[0];
                for (int i = 0; i < HOPS.size(); i++) {
                    hops[i] = points[i + 1] - points[i];
                }
                hops[HOPS.size()] = points[HOPS.size()] - points[0];
                traced.add(hops);
            }
        }
        traced.sort(Comparator.comparingLong((long[] h) -> h[HOPS.size()]).reversed());
        List<long[]> slowest = traced.subList(0, Math.max(1, Math.min(traced.size(), traced.size() / 100)));
        Table t = new Table("Quanta, hop by hop (" + traced.size() + " of " + ids.size() + " submissions traced)",
                "hop", "all: median", "all: max", "slowest 1 %: median", "slowest 1 %: max");
        for (int i = 0; i <= HOPS.size(); i++) {
            int hop = i;
            List<Long> all = traced.stream().map(h -> h[hop]).toList();
            List<Long> slow = slowest.stream().map(h -> h[hop]).toList();
            t.row(i < HOPS.size() ? HOPS.get(i) : "total (sent to START committed)",
                    Table.ms(Stats.percentile(all, 50)), Table.ms(Stats.max(all)),
                    Table.ms(Stats.percentile(slow, 50)), Table.ms(Stats.max(slow)));
        }
        StringBuilder each = new StringBuilder("the ten slowest, ms per hop in the order above, then the total, and "
                + "when each was sent (UTC): ");
        traced.stream().limit(10).forEach(h -> each.append(Arrays.toString(Arrays.copyOf(h, HOPS.size() + 1)))
                .append(" at ").append(LocalTime.ofInstant(Instant.ofEpochMilli(h[HOPS.size() + 1]), ZoneOffset.UTC))
                .append("; "));
        t.note(each.toString().trim());
        return t;
    }

    @Override
    public void close() {
        closed = true;
        for (Thread t : readers) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
