package io.quanta.bench;

import io.quanta.schemas.GpuInfo;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.JobTelemetry;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.schemas.RunningAttempt;
import io.quanta.topics.TopicCatalogue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Simulated GPU servers and the command reader, in the driver's process: every node heartbeats (spread evenly over
 * the interval, listing what it runs), a {@code read_committed} consumer of the commands topic notes when each job's
 * first START arrived and answers it as a node connector would (STARTED at once, COMPLETED after the job duration
 * when there is one; SUSPENDED for a SUSPEND), and telemetry flows at a fixed rate for the running attempts, with a
 * constant throughput (telemetry that changes nothing).
 */
public final class SimulatedNodes implements AutoCloseable {

    /** One simulated server. */
    public record Node(String id, String cell, String rack) {
    }

    private record Attempt(String jobId, int attempt, String nodeId, List<Integer> gpus) {
    }

    private final TopicCatalogue topics;
    private final List<Node> nodes;
    private final int gpusPerNode;
    private final Duration heartbeatInterval;
    private final java.util.function.ToLongFunction<String> jobDurationMs;
    private final Map<String, String> cellOf = new java.util.HashMap<>();
    private final Map<String, Long> startedAt = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Attempt>> running = new ConcurrentHashMap<>();
    private final List<Attempt> telemetryTargets = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final AtomicLong starts = new AtomicLong();
    private final AtomicLong telemetrySent = new AtomicLong();
    private final KafkaProducer<String, NodeHeartbeat> beats;
    private final KafkaProducer<String, JobEvent> events;
    private final KafkaProducer<String, JobTelemetry> telemetry;
    private final KafkaConsumer<String, NodeCommand> commands;
    private final ScheduledExecutorService timers = Executors.newScheduledThreadPool(3, r -> {
        Thread t = new Thread(r, "sim-nodes");
        t.setDaemon(true);
        return t;
    });
    private final Thread reader;
    private volatile boolean closed;
    private volatile Consumer<NodeCommand> onStart = c -> { };
    private volatile double telemetryPerSecond;

    /**
     * @param jobDurationMs per job id, how long a started job runs before its node reports COMPLETED; 0 = until the end
     */
    public SimulatedNodes(String bootstrap, TopicCatalogue topics, List<Node> nodes, int gpusPerNode,
                          Duration heartbeatInterval, java.util.function.ToLongFunction<String> jobDurationMs) {
        this.topics = topics;
        this.nodes = List.copyOf(nodes);
        this.gpusPerNode = gpusPerNode;
        this.heartbeatInterval = heartbeatInterval;
        this.jobDurationMs = jobDurationMs;
        nodes.forEach(n -> cellOf.put(n.id(), n.cell()));
        Map<String, Object> fast = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 0);
        Map<String, Object> batched = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        this.beats = new KafkaProducer<>(batched, new StringSerializer(),
                topics.heartbeats().valueSerde().serializer());
        this.events = new KafkaProducer<>(fast, new StringSerializer(), topics.events().valueSerde().serializer());
        this.telemetry = new KafkaProducer<>(batched, new StringSerializer(),
                topics.telemetry().valueSerde().serializer());
        this.commands = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 5,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000),
                new StringDeserializer(), topics.commands().valueSerde().deserializer());
        List<TopicPartition> partitions = commands.partitionsFor(topics.commands().name()).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
        commands.assign(partitions);
        commands.seekToBeginning(partitions);
        this.reader = new Thread(this::readCommands, "sim-nodes-commands");
    }

    /** {@code count} nodes named {@code node-<cell>-<n>} in each cell, racks of 32. */
    public static List<Node> layout(List<String> cells, int perCell) {
        List<Node> out = new ArrayList<>();
        for (String cell : cells) {
            for (int n = 0; n < perCell; n++) {
                out.add(new Node(String.format("n-%s-%05d", cell, n), cell, "r" + (n / 32)));
            }
        }
        return out;
    }

    /** Starts heartbeats (the first round at once), the command reader and the telemetry (rate 0 until set). */
    public void start() {
        reader.start();
        long tickMs = 100;
        int ticks = (int) Math.max(1, heartbeatInterval.toMillis() / tickMs);
        AtomicLong tick = new AtomicLong();
        nodes.forEach(this::beat);
        timers.scheduleAtFixedRate(() -> {
            int slot = (int) (tick.incrementAndGet() % ticks);
            for (int i = slot; i < nodes.size(); i += ticks) {
                beat(nodes.get(i));
            }
        }, tickMs, tickMs, TimeUnit.MILLISECONDS);
        timers.scheduleAtFixedRate(new TelemetryPacer(), 10, 10, TimeUnit.MILLISECONDS);
    }

    /** Sends telemetry at {@link #telemetryPerSecond} ({@link Pacer}: no burst after a pause); one timer thread. */
    private final class TelemetryPacer implements Runnable {
        private final Pacer pacer = new Pacer();
        private long sent;

        @Override
        public void run() {
            long owed = pacer.due(telemetryTargets.isEmpty() ? 0 : telemetryPerSecond, System.nanoTime());
            for (long i = 0; i < owed && !telemetryTargets.isEmpty(); i++, sent++) {
                sendTelemetry(telemetryTargets.get((int) (sent % telemetryTargets.size())));
            }
        }
    }

    /** Telemetry records per second over the running attempts from now on (0 stops it). */
    public void telemetryRate(double perSecond) {
        this.telemetryPerSecond = perSecond;
    }

    /** Sends {@code count} telemetry records for the running attempts as fast as the producer takes them. */
    public void telemetryBlast(long count) {
        List<Attempt> targets = List.copyOf(telemetryTargets);
        for (long i = 0; i < count; i++) {
            sendTelemetry(targets.get((int) (i % targets.size())));
        }
        telemetry.flush();
    }

    /** Called on the reader thread with every first START of a job. */
    public void onStart(Consumer<NodeCommand> listener) {
        this.onStart = listener;
    }

    /** When (System.nanoTime) the first START of each job was read. */
    public Map<String, Long> startedAt() {
        return startedAt;
    }

    public long starts() {
        return starts.get();
    }

    public long telemetrySent() {
        return telemetrySent.get();
    }

    public int runningAttempts() {
        return telemetryTargets.size();
    }

    private void sendTelemetry(Attempt a) {
        telemetry.send(new ProducerRecord<>(topics.telemetry().name(), a.jobId(), JobTelemetry.newBuilder()
                .setJobId(a.jobId()).setAttempt(a.attempt()).setNodeId(a.nodeId()).setMinibatchesDone(100)
                .setMinibatchesPerSecond(10.0).setWindowMillis(10_000).setReportedAt(Instant.now())
                .setCellId(cellOf.get(a.nodeId())).build()));
        telemetrySent.incrementAndGet();
    }

    private void beat(Node node) {
        List<RunningAttempt> list = new ArrayList<>();
        running.getOrDefault(node.id(), Map.of()).values().forEach(a ->
                list.add(new RunningAttempt(a.jobId(), a.attempt(), a.gpus())));
        list.sort(java.util.Comparator.comparing(RunningAttempt::getJobId));
        List<GpuInfo> gpus = new ArrayList<>(gpusPerNode);
        for (int i = 0; i < gpusPerNode; i++) {
            gpus.add(GpuInfo.newBuilder().setIndex(i).setUuid(node.id() + "-gpu" + i).setModel("V100")
                    .setMemoryTotalMiB(32_768).setMemoryUsedMiB(0).setUtilizationPercent(0).setHealthy(true).build());
        }
        beats.send(new ProducerRecord<>(topics.heartbeats().name(), node.id(), NodeHeartbeat.newBuilder()
                .setNodeId(node.id()).setCellId(node.cell()).setRack(node.rack()).setEpoch(1).setGpus(gpus)
                .setRunning(list).setSentAt(Instant.now()).build()));
    }

    private void readCommands() {
        while (!closed) {
            var polled = commands.poll(Duration.ofMillis(5));
            long now = System.nanoTime();
            for (ConsumerRecord<String, NodeCommand> r : polled) {
                handle(r.value(), now);
            }
        }
    }

    private void handle(NodeCommand c, long now) {
        String key = c.getJobId() + "#" + c.getAttempt();
        switch (c.getType()) {
            case START -> {
                if (startedAt.putIfAbsent(c.getJobId(), now) == null) {
                    starts.incrementAndGet();
                    onStart.accept(c);
                }
                Attempt a = new Attempt(c.getJobId(), c.getAttempt(), c.getNodeId(), List.copyOf(c.getGpuIndices()));
                running.computeIfAbsent(c.getNodeId(), n -> new ConcurrentHashMap<>()).put(key, a);
                telemetryTargets.add(a);
                event(a, JobEventType.STARTED);
                long duration = jobDurationMs.applyAsLong(c.getJobId());
                if (duration > 0) {
                    timers.schedule(() -> {
                        if (remove(c.getNodeId(), key) != null) {
                            event(a, JobEventType.COMPLETED);
                        }
                    }, duration, TimeUnit.MILLISECONDS);
                }
            }
            case SUSPEND -> {
                Attempt a = remove(c.getNodeId(), key);
                if (a != null) {
                    event(a, JobEventType.SUSPENDED);
                }
            }
            case KILL -> remove(c.getNodeId(), key);
        }
    }

    private Attempt remove(String nodeId, String key) {
        Attempt a = running.getOrDefault(nodeId, Map.of()).remove(key);
        if (a != null) {
            telemetryTargets.remove(a);
        }
        return a;
    }

    private void event(Attempt a, JobEventType type) {
        events.send(new ProducerRecord<>(topics.events().name(), a.jobId(), JobEvent.newBuilder().setJobId(a.jobId())
                .setAttempt(a.attempt()).setNodeId(a.nodeId()).setType(type).setEpoch(1).setAt(Instant.now())
                .setCellId(cellOf.get(a.nodeId())).build()));
    }

    @Override
    public void close() {
        closed = true;
        timers.shutdownNow();
        try {
            reader.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        commands.close();
        beats.close(Duration.ofSeconds(5));
        events.close(Duration.ofSeconds(5));
        telemetry.close(Duration.ofSeconds(5));
    }
}
