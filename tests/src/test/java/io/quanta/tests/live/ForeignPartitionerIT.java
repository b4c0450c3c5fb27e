package io.quanta.tests.live;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.embedded.Await;
import io.quanta.embedded.KafkaStack;
import io.quanta.embedded.KafkaStackExtension;
import io.quanta.schemas.DeadLetter;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.JobRequest;
import io.quanta.schemas.JobState;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.JobTelemetry;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.streams.app.SchedulerApp;
import io.quanta.streams.testing.Records;
import io.quanta.topics.TopicCatalogue;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.zip.CRC32;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Partitioner;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduler does not depend on how producers partition (issue 18, item 1): over a real broker and registry, jobs
 * are submitted by producers that partition like librdkafka (CRC32 of the key, the default of the Python, Go, .NET
 * and C clients) and at random, node connectors write their heartbeats, events and telemetry with the CRC32 rule
 * too, and a cancel comes from a third producer (Java's murmur2): every job starts once, finishes, and gives its GPUs
 * back, and nothing is dead-lettered.
 */
@ExtendWith(KafkaStackExtension.class)
class ForeignPartitionerIT {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final String CELL = "cell-0";
    private static final int JOBS_PER_PRODUCER = 6;

    @TempDir
    Path dir;

    private LiveCluster cluster;
    private TopicCatalogue topics;
    private KafkaStack stack;
    private SchedulerApp app;

    /** librdkafka's default partitioner ({@code consistent_random}): CRC32 of the key modulo the partitions. */
    public static final class Crc32Partitioner implements Partitioner {

        static int partition(byte[] key, int partitions) {
            CRC32 crc = new CRC32();
            crc.update(key);
            return (int) (crc.getValue() % partitions);
        }

        @Override
        public int partition(String topic, Object key, byte[] keyBytes, Object value, byte[] valueBytes,
                             Cluster cluster) {
            return partition(keyBytes, cluster.partitionCountForTopic(topic));
        }

        @Override
        public void configure(Map<String, ?> configs) {
        }

        @Override
        public void close() {
        }
    }

    /** Any partition, whatever the key (seeded, so every run places the same jobs the same way). */
    public static final class RandomPartitioner implements Partitioner {

        private final Random random = new Random(18);

        @Override
        public synchronized int partition(String topic, Object key, byte[] keyBytes, Object value, byte[] valueBytes,
                                          Cluster cluster) {
            return random.nextInt(cluster.partitionCountForTopic(topic));
        }

        @Override
        public void configure(Map<String, ?> configs) {
        }

        @Override
        public void close() {
        }
    }

    @BeforeEach
    void setUp(KafkaStack stack) throws Exception {
        this.stack = stack;
        cluster = LiveCluster.create(stack, dir, "partit");
        topics = cluster.topics();
    }

    @AfterEach
    void tearDown() throws Exception {
        cluster.close();
        if (app != null) {
            app.close();
        }
    }

    @Test
    void shouldRunEveryJobWhicheverPartitionItsProducerChose() throws Exception {
        Tail<JobStatus> statuses = cluster.tail(topics.status());
        Tail<JobEvent> events = cluster.tail(topics.events());
        Tail<JobTelemetry> telemetry = cluster.tail(topics.telemetry());
        Tail<NodeHeartbeat> heartbeats = cluster.tail(topics.heartbeats());
        Tail<DeadLetter> deadLetters = cluster.tail(topics.deadLetter());
        app = cluster.startApp("state", WAIT);
        // Kafka client settings pass through to the connectors' producers: they write like librdkafka connectors
        for (String node : List.of("fp-n1", "fp-n2")) {
            cluster.startNode(node, CELL, Map.of(ProducerConfig.PARTITIONER_CLASS_CONFIG,
                    Crc32Partitioner.class.getName()));
        }
        Await.until("both nodes registered (8 GPUs)", WAIT,
                () -> get("/cells/" + CELL + "/summary").contains("\"gpusTotal\" : 8"));
        int partitions = topics.submissions().partitions();

        Map<String, Integer> placed = new HashMap<>();
        KafkaProducer<String, JobRequest> crc32 = submitter(Crc32Partitioner.class);
        KafkaProducer<String, JobRequest> random = submitter(RandomPartitioner.class);
        for (int i = 0; i < JOBS_PER_PRODUCER; i++) {
            placed.put("crc-" + i, submit(crc32, "crc-" + i, 300 + 30L * i));
            placed.put("rnd-" + i, submit(random, "rnd-" + i, 300 + 30L * i));
        }
        // a job the scheduler's partitioner would have put elsewhere, cancelled by a Java producer (murmur2)
        int elsewhere = (javaPartition("long-1", partitions) + 1) % partitions;
        crc32.send(new ProducerRecord<>(topics.submissions().name(), elsewhere, "long-1", request("long-1", 4,
                1_000_000))).get();
        assertThat(placed.entrySet()).as("jobs on another partition than a Java producer would choose")
                .filteredOn(e -> e.getValue() != javaPartition(e.getKey(), partitions))
                .extracting(e -> e.getKey().substring(0, 3)).contains("crc", "rnd");

        Await.until("long-1 RUNNING", WAIT, () -> state(statuses, "long-1") == JobState.RUNNING);
        submitter(null).send(new ProducerRecord<>(topics.submissions().name(), "long-1", Records.cancel("long-1")))
                .get();

        Await.until("all " + 2 * JOBS_PER_PRODUCER + " jobs FINISHED and long-1 CANCELLED", WAIT, () -> {
            Map<String, JobStatus> latest = latest(statuses.values());
            return latest.size() == placed.size() + 1 && placed.keySet().stream()
                    .allMatch(id -> latest.get(id).getState() == JobState.FINISHED)
                    && latest.get("long-1").getState() == JobState.CANCELLED;
        });
        Await.until("the scheduler holds no GPU and no job", WAIT, () -> {
            String summary = get("/cells/" + CELL + "/summary");
            return summary.contains("\"gpusUsed\" : 0") && summary.contains("\"gpusFree\" : 8")
                    && summary.contains("\"starting\" : 0") && summary.contains("\"running\" : 0");
        });
        Await.until("both nodes report that they run nothing", WAIT, () -> latestBeats(heartbeats)
                .values().stream().filter(b -> b.getRunning().isEmpty()).count() == 2);

        // one STARTED per member of an attempt: a gang placed over both nodes (long-1 needs 4 of the 8 GPUs, and
        // whether 4 are free on one node when it is placed depends on timing) reports it from each node
        Map<String, Long> started = events.values().stream().filter(e -> e.getType() == JobEventType.STARTED)
                .collect(Collectors.groupingBy(e -> e.getJobId() + "#" + e.getAttempt() + "@" + e.getNodeId(),
                        Collectors.counting()));
        assertThat(started).as("STARTED events by job, attempt and node")
                .allSatisfy((member, n) -> assertThat(n).as(member).isEqualTo(1L));
        assertThat(started.keySet().stream().map(member -> member.substring(0, member.indexOf('#'))).distinct())
                .as("jobs that started").hasSize(placed.size() + 1);
        assertThat(events.records()).as("events the connectors' CRC32 rule put elsewhere than murmur2")
                .anyMatch(r -> r.partition() != javaPartition(r.key(), partitions));
        assertThat(telemetry.values()).as("telemetry names the node's cell").isNotEmpty()
                .allSatisfy(t -> assertThat(t.getCellId()).isEqualTo(CELL));
        assertThat(deadLetters.values()).extracting(DeadLetter::getReason).isEmpty();
    }

    private KafkaProducer<String, JobRequest> submitter(Class<? extends Partitioner> partitioner) {
        Map<String, Object> props = new HashMap<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                stack.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all"));
        if (partitioner != null) {
            props.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, partitioner);
        }
        KafkaProducer<String, JobRequest> producer = new KafkaProducer<>(props, new StringSerializer(),
                topics.submissions().valueSerde().serializer());
        return cluster.closeLater(producer);
    }

    /** Submits a 2-GPU job and returns the partition it was written to. */
    private int submit(KafkaProducer<String, JobRequest> producer, String jobId, long seconds) throws Exception {
        return producer.send(new ProducerRecord<>(topics.submissions().name(), jobId, request(jobId, 2, seconds)))
                .get().partition();
    }

    private static JobRequest request(String jobId, int gpus, long seconds) {
        return Records.request(Records.job(jobId, gpus).setExpectedDurationSeconds(seconds)
                .setSubmittedAt(Instant.now()).build());
    }

    /** The partition Kafka's Java producer (and Kafka Streams) chooses for a key. */
    private static int javaPartition(String key, int partitions) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    private String get(String path) {
        return LiveCluster.get(app, path);
    }

    private static JobState state(Tail<JobStatus> statuses, String jobId) {
        JobStatus status = latest(statuses.values()).get(jobId);
        return status == null ? null : status.getState();
    }

    private static Map<String, JobStatus> latest(List<JobStatus> statuses) {
        return statuses.stream().collect(Collectors.toMap(JobStatus::getJobId, Function.identity(), (a, b) -> b));
    }

    private static Map<String, NodeHeartbeat> latestBeats(Tail<NodeHeartbeat> heartbeats) {
        heartbeats.values();
        return heartbeats.records().stream().map(ConsumerRecord::value).collect(Collectors.toMap(
                NodeHeartbeat::getNodeId, Function.identity(), (a, b) -> a.getSentAt().isAfter(b.getSentAt()) ? a : b));
    }
}
