package io.quanta.streams.bench;

import io.quanta.embedded.Await;
import io.quanta.embedded.EmbeddedKafkaStack;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.JobRequest;
import io.quanta.schemas.JobTelemetry;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeCommandType;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.streams.SchedulerConfigSection;
import io.quanta.streams.app.SchedulerApp;
import io.quanta.streams.testing.Records;
import io.quanta.topics.QuantaTopic;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.admin.TopicsApply;
import io.quanta.topics.config.QuantaConfig;
import io.quanta.topics.serde.AvroSerdeFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Benchmark of the scheduler app on the embedded broker and registry (exactly-once on): 125 nodes x 8 GPUs register,
 * then (1) latency from a submission produced until its START command is read by a read_committed consumer, over
 * 1,000 submissions with free GPUs (after a warm-up), and (2) the sustained rate of telemetry records the app keeps up
 * with. Prints a Markdown table. Not a test: run it by hand (command in docs/benchmarks.md).
 *
 * <p>Arguments: {@code [submissions=1000] [telemetry=200000] [commitIntervalMs=20] [policy=tiresias-las]
 * [streamThreads=1]}; system property {@code bench.props} adds settings ({@code key=value,key=value}).
 */
public final class TopologyBenchmark {

    private static final int NODES = 125;
    private static final int GPUS_PER_NODE = 8;
    private static final int WARM_UP = 100;
    private static final String CELL = "cell-0";

    private TopologyBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int submissions = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int telemetryRecords = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
        String commitMs = args.length > 2 ? args[2] : "20";
        String policy = args.length > 3 ? args[3] : "tiresias-las";
        String threads = args.length > 4 ? args[4] : "1";
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        try (EmbeddedKafkaStack stack = EmbeddedKafkaStack.start(Duration.ofMinutes(5))) {
            run(stack, submissions, telemetryRecords, commitMs, policy, threads);
        }
        System.exit(0);
    }

    private static void run(EmbeddedKafkaStack stack, int submissions, int telemetryRecords, String commitMs,
                            String policy, String threads) throws Exception {
        Map<String, String> values = new HashMap<>();
        values.put("bootstrap.servers", stack.bootstrapServers());
        values.put("schema.registry.url", stack.registryUrl());
        values.put(SchedulerConfigSection.POLICY, policy);
        values.put(SchedulerConfigSection.COMMIT_INTERVAL_MS, commitMs);
        values.put(SchedulerConfigSection.STREAM_THREADS, threads);
        values.put(SchedulerConfigSection.STATUS_PORT, "0");
        values.put(SchedulerConfigSection.NODE_TIMEOUT_MS, "600000");
        values.put(SchedulerConfigSection.STATE_DIR, Files.createTempDirectory("quanta-bench").toString());
        for (QuantaTopic topic : QuantaTopic.values()) {
            values.put(topic.nameKey(), "bench." + topic.defaultName());
        }
        // extra client or Streams settings to try, e.g. -Dbench.props=main.consumer.fetch.max.wait.ms=50
        for (String pair : System.getProperty("bench.props", "").split(",")) {
            if (pair.contains("=")) {
                values.put(pair.substring(0, pair.indexOf('=')).trim(), pair.substring(pair.indexOf('=') + 1).trim());
            }
        }
        QuantaConfig config = QuantaConfig.of(values);
        TopicCatalogue topics = TopicCatalogue.from(config, AvroSerdeFactory.from(config));
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", stack.bootstrapServers()))) {
            new TopicsApply(admin, Duration.ofSeconds(60)).apply(topics.all());
        }
        Map<String, Object> producerProps = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 0);
        try (SchedulerApp app = SchedulerApp.create(config);
             KafkaProducer<String, JobRequest> jobs = new KafkaProducer<>(producerProps, new StringSerializer(),
                     topics.submissions().valueSerde().serializer());
             KafkaProducer<String, NodeHeartbeat> beats = new KafkaProducer<>(producerProps, new StringSerializer(),
                     topics.heartbeats().valueSerde().serializer());
             KafkaProducer<String, io.quanta.schemas.JobEvent> events = new KafkaProducer<>(producerProps,
                     new StringSerializer(), topics.events().valueSerde().serializer());
             KafkaConsumer<String, NodeCommand> commands = new KafkaConsumer<>(Map.of(
                     ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers(),
                     ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                     ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 5),
                     new StringDeserializer(), topics.commands().valueSerde().deserializer())) {
            app.start();
            if (!app.awaitRunning(Duration.ofMinutes(2))) {
                throw new IllegalStateException("scheduler did not reach RUNNING");
            }
            List<TopicPartition> partitions = commands.partitionsFor(topics.commands().name()).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            commands.assign(partitions);
            commands.seekToEnd(partitions);
            commands.position(partitions.getFirst());
            ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "bench-heartbeats");
                t.setDaemon(true);
                return t;
            });
            heartbeats.scheduleAtFixedRate(() -> {
                for (int n = 0; n < NODES; n++) {
                    String id = String.format("node-%03d", n);
                    beats.send(new ProducerRecord<>(topics.heartbeats().name(), id,
                            Records.node(id, CELL, GPUS_PER_NODE, 1, Instant.now()).build()));
                }
            }, 0, 5, TimeUnit.SECONDS);
            Await.until("125 nodes registered", Duration.ofMinutes(2), () -> summary(app).contains(
                    "\"gpusTotal\" : " + NODES * GPUS_PER_NODE));

            Map<String, Long> sentAt = new ConcurrentHashMap<>();
            Map<String, NodeCommand> startOf = new HashMap<>();
            Map<String, Long> warm = latencies("warm", WARM_UP, topics, jobs, commands, sentAt, startOf);
            for (int i = 0; i < WARM_UP; i++) {
                NodeCommand start = startOf.get("warm-" + i);
                events.send(new ProducerRecord<>(topics.events().name(), start.getJobId(), Records.event(
                        start.getJobId(), start.getAttempt(), start.getNodeId(), JobEventType.COMPLETED,
                        Instant.now())));
            }
            events.flush();
            Await.until("warm-up jobs finished", Duration.ofMinutes(2), () -> summary(app).contains(
                    "\"gpusFree\" : " + NODES * GPUS_PER_NODE));
            long submitCpu = streamThreadsCpuNanos();
            Map<String, Long> measured = latencies("job", submissions, topics, jobs, commands, sentAt, startOf);
            submitCpu = streamThreadsCpuNanos() - submitCpu;
            long[] latency = measured.values().stream().mapToLong(Long::longValue).sorted().toArray();
            printSlowest(sentAt, measured, submissions);

            print(submissions, latency, warm, commitMs + ", stream threads " + threads, policy);
            System.out.printf("| CPU of the stream thread(s) per submission (routing, pass, START) | %.2f ms |%n",
                    submitCpu / 1e6 / submissions);
            long streamCpu = streamThreadsCpuNanos();
            long processCpu = processCpuNanos();
            double rate = telemetryRate(stack, app, topics, startOf, telemetryRecords);
            streamCpu = streamThreadsCpuNanos() - streamCpu;
            processCpu = processCpuNanos() - processCpu;
            System.out.printf("| telemetry records produced and consumed | %d |%n", telemetryRecords);
            System.out.printf("| CPU of the stream thread(s) per telemetry record | %.1f us (%.0f records per "
                    + "CPU-second) |%n", streamCpu / 1e3 / telemetryRecords, telemetryRecords / (streamCpu / 1e9));
            System.out.printf("| CPU of the whole JVM (broker, registry client, load generator, app) per record | "
                    + "%.1f us |%n", processCpu / 1e3 / telemetryRecords);
            System.out.printf("| sustained telemetry rate (first produced to all committed) | %.0f records/s |%n",
                    rate);
            heartbeats.shutdownNow();
        }
    }

    /** Submits {@code count} jobs one every 20 ms; each job's latency until its START is read, by job id. */
    private static Map<String, Long> latencies(String prefix, int count, TopicCatalogue topics,
                                        KafkaProducer<String, JobRequest> jobs,
                                        KafkaConsumer<String, NodeCommand> commands, Map<String, Long> sentAt,
                                        Map<String, NodeCommand> startOf) {
        Map<String, Long> out = new HashMap<>();
        AtomicBoolean done = new AtomicBoolean();
        Thread reader = new Thread(() -> {
            while (!done.get()) {
                var polled = commands.poll(Duration.ofMillis(5));
                long now = System.nanoTime();
                for (var r : polled) {
                    NodeCommand c = r.value();
                    Long sent = sentAt.get(c.getJobId());
                    if (c.getType() == NodeCommandType.START && sent != null && c.getJobId().startsWith(prefix)) {
                        synchronized (out) {
                            out.put(c.getJobId(), (now - sent) / 1_000_000);
                            startOf.put(c.getJobId(), c);
                        }
                    }
                }
            }
        });
        reader.start();
        for (int i = 0; i < count; i++) {
            String id = prefix + "-" + i;
            sentAt.put(id, System.nanoTime());
            jobs.send(new ProducerRecord<>(topics.submissions().name(), id,
                    Records.request(Records.job(id, 1).setSubmittedAt(Instant.now()).build())));
            sleepMillis(20);
        }
        Await.until(count + " START commands of " + prefix, Duration.ofMinutes(5), () -> {
            synchronized (out) {
                return out.size() >= count;
            }
        });
        done.set(true);
        try {
            reader.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return out;
    }

    private static double telemetryRate(EmbeddedKafkaStack stack, SchedulerApp app, TopicCatalogue topics,
                                        Map<String, NodeCommand> startOf, int records) throws Exception {
        List<NodeCommand> running = startOf.values().stream().filter(c -> c.getJobId().startsWith("job-")).toList();
        Map<String, Object> props = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "1", ProducerConfig.LINGER_MS_CONFIG, 20,
                ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        String appId = app.settings().applicationId();
        long began = System.nanoTime();
        try (KafkaProducer<String, JobTelemetry> producer = new KafkaProducer<>(props, new StringSerializer(),
                topics.telemetry().valueSerde().serializer())) {
            for (int i = 0; i < records; i++) {
                NodeCommand c = running.get(i % running.size());
                producer.send(new ProducerRecord<>(topics.telemetry().name(), c.getJobId(), Records.telemetry(
                        c.getJobId(), c.getAttempt(), c.getNodeId(), 10.0, Instant.now())));
            }
        }
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", stack.bootstrapServers()))) {
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            admin.describeTopics(List.of(topics.telemetry().name(), topics.inbox().name())).allTopicNames().get()
                    .forEach((name, d) -> d.partitions().forEach(p -> latest.put(new TopicPartition(name,
                            p.partition()), OffsetSpec.latest())));
            Await.until("the app consumed every telemetry record", Duration.ofMinutes(10), () -> {
                try {
                    Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = admin.listOffsets(latest,
                            new org.apache.kafka.clients.admin.ListOffsetsOptions(
                                    org.apache.kafka.common.IsolationLevel.READ_COMMITTED)).all().get();
                    Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(appId)
                            .partitionsToOffsetAndMetadata().get();
                    return ends.entrySet().stream().allMatch(e -> e.getValue().offset() <= 1 + (committed.containsKey(
                            e.getKey()) ? committed.get(e.getKey()).offset() : 0));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        }
        return records / ((System.nanoTime() - began) / 1e9);
    }

    private static long streamThreadsCpuNanos() {
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long total = 0;
        for (var info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().contains("StreamThread")) {
                total += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
            }
        }
        return total;
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static String summary(SchedulerApp app) {
        try {
            var response = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create("http://127.0.0.1:" + app.statusApiAddress().orElseThrow().getPort()
                            + "/cells/" + CELL + "/summary")).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            return response.body();
        } catch (Exception e) {
            return "";
        }
    }

    private static void print(int submissions, long[] latency, Map<String, Long> warm, String commitMs,
                              String policy) {
        Runtime rt = Runtime.getRuntime();
        System.out.printf("%n| metric | value |%n|---|---|%n");
        System.out.printf("| policy / commit.interval.ms | %s / %s |%n", policy, commitMs);
        System.out.printf("| nodes x GPUs registered | %d x %d |%n", NODES, GPUS_PER_NODE);
        System.out.printf("| submissions measured (after %d warm-up, first warm-up %d ms) | %d |%n", warm.size(),
                warm.getOrDefault("warm-0", -1L), submissions);
        System.out.printf("| submit -> START read_committed p50 | %d ms |%n", pct(latency, 50));
        System.out.printf("| submit -> START read_committed p99 | %d ms |%n", pct(latency, 99));
        System.out.printf("| submit -> START read_committed max | %d ms |%n", latency[latency.length - 1]);
        System.out.printf("| machine | %d cores, Java %s, max heap %d MiB, load average %.1f |%n",
                rt.availableProcessors(), System.getProperty("java.version"), rt.maxMemory() / (1 << 20),
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        System.err.println("latencies (sorted ms): " + Arrays.toString(Arrays.copyOf(latency, Math.min(5,
                latency.length))) + " ... " + Arrays.toString(Arrays.copyOfRange(latency,
                Math.max(0, latency.length - 5), latency.length)));
    }

    /** The slowest submissions with their send time since the first: shows whether the tail is periodic. */
    private static void printSlowest(Map<String, Long> sentAt, Map<String, Long> latencies, int submissions) {
        long first = sentAt.get("job-0");
        StringBuilder line = new StringBuilder("slowest submissions (ms at seconds since the first send):");
        latencies.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(Math.max(5, submissions / 50))
                .forEach(e -> line.append(String.format(java.util.Locale.ROOT, " %d@%.2f", e.getValue(),
                        (sentAt.get(e.getKey()) - first) / 1e9)));
        System.err.println(line);
    }

    private static long pct(long[] sorted, int p) {
        int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    private static void sleepMillis(long ms) {
        java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(ms));
    }
}
