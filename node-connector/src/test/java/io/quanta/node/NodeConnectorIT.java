package io.quanta.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.embedded.Await;
import io.quanta.embedded.KafkaStack;
import io.quanta.embedded.KafkaStackExtension;
import io.quanta.node.testing.Commands;
import io.quanta.node.testing.Jobs;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.JobTelemetry;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.schemas.RunningAttempt;
import io.quanta.topics.QuantaTopic;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.TopicSpec;
import io.quanta.topics.admin.TopicsApply;
import io.quanta.topics.config.QuantaConfig;
import io.quanta.topics.serde.AvroSerdeFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The node connector against a real broker and schema registry, running real processes. */
@ExtendWith(KafkaStackExtension.class)
class NodeConnectorIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int COMMAND_PARTITIONS = 3;

    @TempDir
    Path dir;

    private final String nodeId = "it-node-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<NodeHeartbeat> heartbeats = new ArrayList<>();
    private final List<JobEvent> events = new ArrayList<>();
    private final List<JobTelemetry> telemetry = new ArrayList<>();
    private TopicCatalogue catalogue;
    private NodeConnector connector;
    private KafkaProducer<String, NodeCommand> commands;
    private List<KafkaConsumer<String, ?>> consumers;
    private final Map<String, String> values = new HashMap<>();
    private final List<Long> pidsToKill = new ArrayList<>();

    @BeforeEach
    void setUp(KafkaStack stack) throws Exception {
        String prefix = "nodeit" + UUID.randomUUID().toString().substring(0, 8) + ".";
        for (QuantaTopic topic : QuantaTopic.values()) {
            values.put(topic.nameKey(), prefix + topic.defaultName());
        }
        values.put(QuantaTopic.COMMANDS.partitionsKey(), Integer.toString(COMMAND_PARTITIONS));
        values.put("bootstrap.servers", stack.bootstrapServers());
        values.put("schema.registry.url", stack.registryUrl());
        values.put(NodeConfigSection.ID, nodeId);
        values.put(NodeConfigSection.CELL, "cell-a");
        values.put(NodeConfigSection.RACK, "rack-1");
        values.put(NodeConfigSection.WORK_DIR, dir.resolve("node").toString());
        values.put(NodeConfigSection.NVIDIA_SMI, fakeNvidiaSmi().toString());
        values.put(NodeConfigSection.HEARTBEAT_INTERVAL_MS, "200");
        values.put(NodeConfigSection.TELEMETRY_WINDOW_MS, "300");
        QuantaConfig config = QuantaConfig.of(values);
        catalogue = TopicCatalogue.from(config, AvroSerdeFactory.from(config));
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", stack.bootstrapServers()))) {
            new TopicsApply(admin, Duration.ofSeconds(30)).apply(catalogue.all());
        }
        commands = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers", stack.bootstrapServers()),
                new StringSerializer(), catalogue.commands().valueSerde().serializer());
        consumers = List.of(reader(stack, catalogue.heartbeats()), reader(stack, catalogue.events()),
                reader(stack, catalogue.telemetry()));
    }

    private void startConnector(Map<String, String> overrides) {
        Map<String, String> all = new HashMap<>(values);
        all.putAll(overrides);
        connector = NodeConnector.create(QuantaConfig.of(all));
        connector.start();
    }

    @AfterEach
    void tearDown() {
        if (connector != null) {
            connector.close();
        }
        commands.close();
        consumers.forEach(KafkaConsumer::close);
        pidsToKill.forEach(Jobs::killTree);
    }

    @Test
    void shouldRunAStartedJobToCompletionAndReportItWithHeartbeatsAndTelemetry() {
        startConnector(Map.of());
        NodeHeartbeat first = awaitHeartbeat("a first heartbeat", h -> true);
        assertThat(first.getCellId()).isEqualTo("cell-a");
        assertThat(first.getRack()).isEqualTo("rack-1");
        assertThat(first.getGpus()).hasSize(8);
        long epoch = first.getEpoch();
        assertThat(epoch).isEqualTo(connector.epoch());

        NodeCommand start = Commands.start(nodeId, epoch, "it-job", 1,
                Jobs.example("--steps", "20", "--step-ms", "5")).setGpuIndices(List.of(2, 5)).build();
        send(start);

        JobEvent started = awaitEvent("it-job", JobEventType.STARTED);
        JobEvent completed = awaitEvent("it-job", JobEventType.COMPLETED);
        assertThat(started.getCommandId()).isEqualTo(start.getCommandId());
        assertThat(completed.getNodeId()).isEqualTo(nodeId);
        assertThat(completed.getEpoch()).isEqualTo(epoch);
        Await.until("telemetry with all 20 minibatches", WAIT, () -> {
            drain();
            return telemetry.stream().anyMatch(t -> t.getJobId().equals("it-job") && t.getMinibatchesDone() == 20);
        });

        send(start);
        JobEvent ignored = awaitEvent("it-job", JobEventType.COMMAND_IGNORED);
        assertThat(ignored.getMessage()).contains("duplicate");
        assertThat(events.stream().filter(e -> e.getJobId().equals("it-job")
                && e.getType() == JobEventType.STARTED)).hasSize(1);
    }

    @Test
    void shouldListARunningJobInItsHeartbeatsUntilItIsKilled() {
        startConnector(Map.of());
        long epoch = awaitHeartbeat("a first heartbeat", h -> true).getEpoch();
        send(Commands.start(nodeId, epoch, "long-job", 1,
                Jobs.example("--steps", "100000", "--step-ms", "10", "--idle")).build());

        awaitHeartbeat("a heartbeat listing the job",
                h -> h.getRunning().contains(new RunningAttempt("long-job", 1, List.of(0))));
        send(Commands.kill(nodeId, epoch, "long-job", 1));

        JobEvent failed = awaitEvent("long-job", JobEventType.FAILED);
        assertThat(failed.getMessage()).contains("killed on request");
        awaitHeartbeat("a heartbeat without the job", h -> h.getRunning().isEmpty() && h.getSentAt()
                .isAfter(failed.getAt()));
    }

    @Test
    void shouldReportWhatStillRunsInALastHeartbeatAndLeaveTheJobRunningWhenClosed() throws Exception {
        startConnector(Map.of());
        long epoch = awaitHeartbeat("a first heartbeat", h -> true).getEpoch();
        Path pidFile = dir.resolve("job.pid");
        send(Commands.start(nodeId, epoch, "survivor", 1,
                List.of("/bin/sh", "-c", "echo $$ > " + pidFile + "; exec sleep 600")).build());
        awaitEvent("survivor", JobEventType.STARTED);
        Await.until("the job wrote its pid", WAIT, () -> Files.exists(pidFile) && !readQuietly(pidFile).isBlank());
        long pid = Long.parseLong(readQuietly(pidFile).strip());
        pidsToKill.add(ProcessHandle.of(pid).flatMap(ProcessHandle::parent).map(ProcessHandle::pid).orElse(pid));

        java.time.Instant closing = java.time.Instant.now();
        connector.close();

        NodeHeartbeat last = awaitHeartbeat("a heartbeat sent while closing that lists the job",
                h -> !h.getSentAt().isBefore(closing)
                        && h.getRunning().contains(new RunningAttempt("survivor", 1, List.of(0))));
        assertThat(last.getEpoch()).isEqualTo(epoch);
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).contains(true);
    }

    @Test
    void shouldRunSimulatedJobsCompressedAndReportThemLostWhenClosed() {
        startConnector(Map.of(NodeConfigSection.BACKEND, "simulated", NodeConfigSection.GPUS, "4",
                NodeConfigSection.GPU_MODEL, "A100", NodeConfigSection.SIM_SPEED, "100"));
        NodeHeartbeat first = awaitHeartbeat("a first heartbeat", h -> true);
        assertThat(first.getGpus()).hasSize(4).allSatisfy(g -> {
            assertThat(g.getModel()).isEqualTo("A100");
            assertThat(g.getMemoryTotalMiB()).isEqualTo(40_960);
        });
        long epoch = first.getEpoch();

        send(Commands.simStart(nodeId, epoch, "sim-short", 1, 60).build());
        send(Commands.simStart(nodeId, epoch, "sim-long", 1, 3_600_000).setGpuIndices(List.of(1)).build());

        awaitEvent("sim-short", JobEventType.COMPLETED);
        Await.until("telemetry of the long job", WAIT, () -> {
            drain();
            return telemetry.stream().anyMatch(t -> t.getJobId().equals("sim-long") && t.getMinibatchesDone() > 0);
        });
        connector.close();
        JobEvent lost = awaitEvent("sim-long", JobEventType.LOST);
        assertThat(lost.getMessage()).contains("simulated jobs end with it");
    }

    private static String readQuietly(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "";
        }
    }

    private void send(NodeCommand command) {
        int partition = NodePartition.of(nodeId, COMMAND_PARTITIONS);
        try {
            commands.send(new ProducerRecord<>(catalogue.commands().name(), partition, nodeId, command)).get();
        } catch (Exception e) {
            throw new AssertionError("cannot send " + command.getCommandId(), e);
        }
    }

    private NodeHeartbeat awaitHeartbeat(String what, java.util.function.Predicate<NodeHeartbeat> condition) {
        Await.until(what, WAIT, () -> {
            drain();
            return heartbeats.stream().anyMatch(h -> h.getNodeId().equals(nodeId) && condition.test(h));
        });
        return heartbeats.stream().filter(h -> h.getNodeId().equals(nodeId) && condition.test(h)).findFirst()
                .orElseThrow();
    }

    private JobEvent awaitEvent(String job, JobEventType type) {
        Await.until(type + " of " + job, WAIT, () -> {
            drain();
            return events.stream().anyMatch(e -> e.getJobId().equals(job) && e.getType() == type);
        });
        return events.stream().filter(e -> e.getJobId().equals(job) && e.getType() == type).findFirst()
                .orElseThrow();
    }

    @SuppressWarnings("unchecked")
    private void drain() {
        for (KafkaConsumer<String, ?> consumer : consumers) {
            for (ConsumerRecord<String, ?> record : consumer.poll(Duration.ofMillis(50))) {
                Object value = record.value();
                if (value instanceof NodeHeartbeat h) {
                    heartbeats.add(h);
                } else if (value instanceof JobEvent e) {
                    assertThat(record.key()).isEqualTo(e.getJobId());
                    events.add(e);
                } else if (value instanceof JobTelemetry t) {
                    telemetry.add(t);
                }
            }
        }
    }

    private static <V> KafkaConsumer<String, V> reader(KafkaStack stack, TopicSpec<String, V> spec) {
        KafkaConsumer<String, V> consumer = new KafkaConsumer<>(Map.<String, Object>of(
                "bootstrap.servers", stack.bootstrapServers(), "auto.offset.reset", "earliest",
                "enable.auto.commit", false), new StringDeserializer(), spec.valueSerde().deserializer());
        consumer.assign(IntStream.range(0, spec.partitions()).mapToObj(p -> new TopicPartition(spec.name(), p))
                .toList());
        consumer.seekToBeginning(consumer.assignment());
        return consumer;
    }

    private Path fakeNvidiaSmi() throws IOException {
        Path output = dir.resolve("nvidia-smi.csv");
        try (var in = NodeConnectorIT.class.getResourceAsStream("/nvidia-smi/v100x8.csv")) {
            Files.write(output, in.readAllBytes());
        }
        Path script = dir.resolve("nvidia-smi");
        Files.writeString(script, "#!/bin/sh\ncat '" + output + "'\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }
}
