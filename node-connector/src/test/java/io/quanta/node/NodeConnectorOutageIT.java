package io.quanta.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.embedded.Await;
import io.quanta.embedded.EmbeddedKafkaBroker;
import io.quanta.embedded.FreePorts;
import io.quanta.embedded.KafkaStack;
import io.quanta.embedded.KafkaStackExtension;
import io.quanta.node.testing.Commands;
import io.quanta.node.testing.FlakyRegistry;
import io.quanta.node.testing.Jobs;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.topics.QuantaTopic;
import io.quanta.topics.TopicCatalogue;
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
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node connector through outages: a private broker (same ports and data when restarted) with the shared registry.
 * Jobs keep running while the broker is down; what happened meanwhile is delivered once it is back, without
 * duplicates, even when the connector is killed with {@code kill -9} before the broker returns (a separate process);
 * a command read while the registry is down is read again once it is back, never skipped.
 */
@ExtendWith(KafkaStackExtension.class)
class NodeConnectorOutageIT {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    private final String nodeId = "outage-node-" + UUID.randomUUID().toString().substring(0, 8);
    private final String prefix = "outage" + UUID.randomUUID().toString().substring(0, 8) + ".";
    private final List<JobEvent> events = new ArrayList<>();
    private final List<NodeHeartbeat> heartbeats = new ArrayList<>();
    private EmbeddedKafkaBroker broker;
    private NodeConnector connector;
    private Process child;
    private FlakyRegistry flakyRegistry;

    @AfterEach
    void tearDown() {
        if (child != null) {
            child.descendants().forEach(ProcessHandle::destroyForcibly);
            child.destroyForcibly();
        }
        if (flakyRegistry != null) {
            flakyRegistry.close();
        }
        if (connector != null) {
            connector.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void shouldKeepJobsRunningDuringABrokerOutageAndDeliverTheirEventsOnceAfterIt(KafkaStack stack)
            throws Exception {
        int brokerPort = FreePorts.next();
        int controllerPort = FreePorts.next(Set.of(brokerPort));
        Path data = dir.resolve("kafka");
        broker = startBroker(brokerPort, controllerPort, data);
        QuantaConfig config = config(stack, broker.bootstrapServers());
        TopicCatalogue catalogue = TopicCatalogue.from(config, AvroSerdeFactory.from(config));
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", broker.bootstrapServers()))) {
            new TopicsApply(admin, Duration.ofSeconds(30)).apply(catalogue.all());
        }
        connector = NodeConnector.create(config);
        connector.start();
        Map<String, Object> clientProps = Map.of("bootstrap.servers", broker.bootstrapServers(),
                "auto.offset.reset", "earliest", "enable.auto.commit", false);
        try (KafkaProducer<String, NodeCommand> commands = new KafkaProducer<>(clientProps.entrySet().stream()
                .filter(e -> e.getKey().equals("bootstrap.servers"))
                .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)),
                new StringSerializer(), catalogue.commands().valueSerde().serializer());
             KafkaConsumer<String, JobEvent> eventReader = new KafkaConsumer<>(clientProps, new StringDeserializer(),
                     catalogue.events().valueSerde().deserializer());
             KafkaConsumer<String, NodeHeartbeat> heartbeatReader = new KafkaConsumer<>(clientProps,
                     new StringDeserializer(), catalogue.heartbeats().valueSerde().deserializer())) {
            assignAll(eventReader, catalogue.events().name(), catalogue.events().partitions());
            assignAll(heartbeatReader, catalogue.heartbeats().name(), catalogue.heartbeats().partitions());
            Await.until("a first heartbeat", WAIT, () -> {
                poll(heartbeatReader, heartbeats);
                return !heartbeats.isEmpty();
            });
            long epoch = heartbeats.get(0).getEpoch();
            int partition = NodePartition.of(nodeId, catalogue.commands().partitions());
            Path go = dir.resolve("go");
            commands.send(new ProducerRecord<>(catalogue.commands().name(), partition, nodeId,
                    Commands.start(nodeId, epoch, "during-outage", 1,
                            Jobs.script("wait-for-file.sh", go.toString(), "0")).build())).get();
            awaitEvent(eventReader, "during-outage", JobEventType.STARTED);

            broker.close();
            Files.writeString(go, "");
            Await.until("the job completes while the broker is down", WAIT, () -> connector.running().isEmpty());
            broker = startBroker(brokerPort, controllerPort, data);

            awaitEvent(eventReader, "during-outage", JobEventType.COMPLETED);
            commands.send(new ProducerRecord<>(catalogue.commands().name(), partition, nodeId,
                    Commands.start(nodeId, epoch, "after-outage", 1, Jobs.script("fail.sh", "0")).build())).get();
            awaitEvent(eventReader, "after-outage", JobEventType.COMPLETED);
            poll(eventReader, events);
        }

        assertThat(events).filteredOn(e -> e.getJobId().equals("during-outage")).extracting(JobEvent::getType)
                .containsExactly(JobEventType.STARTED, JobEventType.COMPLETED);
    }

    @Test
    void shouldDeliverACompletionAfterTheConnectorWasKilledDuringTheBrokerOutage(KafkaStack stack) throws Exception {
        int brokerPort = FreePorts.next();
        int controllerPort = FreePorts.next(Set.of(brokerPort));
        Path data = dir.resolve("kafka");
        broker = startBroker(brokerPort, controllerPort, data);
        Map<String, String> settings = settings(stack, broker.bootstrapServers());
        settings.put(NodeConfigSection.FENCE_TIMEOUT_MS, "600000"); // the outage must not fence the job here
        QuantaConfig config = QuantaConfig.of(settings);
        TopicCatalogue catalogue = TopicCatalogue.from(config, AvroSerdeFactory.from(config));
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", broker.bootstrapServers()))) {
            new TopicsApply(admin, Duration.ofSeconds(30)).apply(catalogue.all());
        }
        Path properties = dir.resolve("node.properties");
        java.util.Properties p = new java.util.Properties();
        p.putAll(settings);
        try (java.io.Writer out = Files.newBufferedWriter(properties)) {
            p.store(out, null);
        }
        child = startConnectorProcess(properties, dir.resolve("connector-1.log"));
        try (Readers readers = new Readers(broker.bootstrapServers(), catalogue)) {
            long epoch = readers.firstHeartbeatEpoch();
            readers.sendCommand(Commands.start(nodeId, epoch, "killed-during-outage", 1,
                    Jobs.script("wait-for-file.sh", dir.resolve("go").toString(), "0")).build());
            awaitEvent(readers.events, "killed-during-outage", JobEventType.STARTED);

            broker.close();
            Files.writeString(dir.resolve("go"), "");
            Path record = dir.resolve("node/jobs/killed-during-outage/attempt-1/attempt.json");
            Await.until("the connector records the completion while the broker is down", WAIT,
                    () -> Files.isRegularFile(record) && read(record).contains("COMPLETED"));
            child.destroyForcibly().waitFor(); // kill -9: whatever the connector kept in memory is gone
            broker = startBroker(brokerPort, controllerPort, data);
            child = startConnectorProcess(properties, dir.resolve("connector-2.log"));

            awaitEvent(readers.events, "killed-during-outage", JobEventType.COMPLETED);
        }
        assertThat(events).filteredOn(e -> e.getJobId().equals("killed-during-outage"))
                .extracting(JobEvent::getType).containsExactly(JobEventType.STARTED, JobEventType.COMPLETED);
    }

    @Test
    void shouldReadACommandAgainOnceTheRegistryIsBackInsteadOfSkippingIt(KafkaStack stack) throws Exception {
        broker = EmbeddedKafkaBroker.builder().build().start();
        flakyRegistry = new FlakyRegistry(stack.registryUrl());
        QuantaConfig direct = config(stack, broker.bootstrapServers());
        TopicCatalogue catalogue = TopicCatalogue.from(direct, AvroSerdeFactory.from(direct));
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", broker.bootstrapServers()))) {
            new TopicsApply(admin, Duration.ofSeconds(30)).apply(catalogue.all());
        }
        Map<String, String> settings = settings(stack, broker.bootstrapServers());
        settings.put("schema.registry.url", flakyRegistry.url());
        settings.put("schema.registry.retries", "0"); // the client's own retries would hide the connector's
        flakyRegistry.down(true);
        connector = NodeConnector.create(QuantaConfig.of(settings));
        connector.start();
        Await.until("the connector reads its commands partition", WAIT, connector::isReady);
        try (Readers readers = new Readers(broker.bootstrapServers(), catalogue)) {
            int refusedBefore = flakyRegistry.refused();
            readers.sendCommand(Commands.start(nodeId, connector.epoch(), "during-registry-outage", 1,
                    Jobs.script("fail.sh", "0")).build());
            Await.until("the connector reads the command again while the registry is down", WAIT,
                    () -> flakyRegistry.refusedPath("/schemas/ids/") >= 2 && flakyRegistry.refused() > refusedBefore);
            assertThat(connector.running()).isEmpty();

            flakyRegistry.down(false);

            awaitEvent(readers.events, "during-registry-outage", JobEventType.COMPLETED);
        }
    }

    /** Consumers of the events and heartbeats, and a producer of commands, on one broker. */
    private final class Readers implements AutoCloseable {
        final KafkaConsumer<String, JobEvent> events;
        final KafkaConsumer<String, NodeHeartbeat> beats;
        final KafkaProducer<String, NodeCommand> commands;
        final TopicCatalogue catalogue;

        Readers(String bootstrap, TopicCatalogue catalogue) {
            this.catalogue = catalogue;
            Map<String, Object> props = Map.of("bootstrap.servers", bootstrap, "auto.offset.reset", "earliest",
                    "enable.auto.commit", false);
            events = new KafkaConsumer<>(props, new StringDeserializer(),
                    catalogue.events().valueSerde().deserializer());
            beats = new KafkaConsumer<>(props, new StringDeserializer(),
                    catalogue.heartbeats().valueSerde().deserializer());
            commands = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers", bootstrap),
                    new StringSerializer(), catalogue.commands().valueSerde().serializer());
            assignAll(events, catalogue.events().name(), catalogue.events().partitions());
            assignAll(beats, catalogue.heartbeats().name(), catalogue.heartbeats().partitions());
        }

        long firstHeartbeatEpoch() {
            Await.until("a first heartbeat", WAIT, () -> {
                poll(beats, heartbeats);
                return !heartbeats.isEmpty();
            });
            return heartbeats.get(0).getEpoch();
        }

        void sendCommand(NodeCommand command) throws Exception {
            int partition = NodePartition.of(nodeId, catalogue.commands().partitions());
            commands.send(new ProducerRecord<>(catalogue.commands().name(), partition, nodeId, command)).get();
        }

        @Override
        public void close() {
            events.close(Duration.ZERO);
            beats.close(Duration.ZERO);
            commands.close(Duration.ZERO);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Process startConnectorProcess(Path properties, Path log) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        return new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "io.quanta.node.testing.ConnectorMain", properties.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private QuantaConfig config(KafkaStack stack, String bootstrap) throws IOException {
        return QuantaConfig.of(settings(stack, bootstrap));
    }

    private Map<String, String> settings(KafkaStack stack, String bootstrap) throws IOException {
        Map<String, String> values = new HashMap<>();
        for (QuantaTopic topic : QuantaTopic.values()) {
            values.put(topic.nameKey(), prefix + topic.defaultName());
        }
        values.put("bootstrap.servers", bootstrap);
        values.put("schema.registry.url", stack.registryUrl());
        values.put(NodeConfigSection.ID, nodeId);
        values.put(NodeConfigSection.WORK_DIR, dir.resolve("node").toString());
        values.put(NodeConfigSection.NVIDIA_SMI, fakeNvidiaSmi().toString());
        values.put(NodeConfigSection.HEARTBEAT_INTERVAL_MS, "200");
        values.put(NodeConfigSection.FENCE_TIMEOUT_MS, "120000"); // outages here are no partitions to fence
        return values;
    }

    private void awaitEvent(KafkaConsumer<String, JobEvent> reader, String job, JobEventType type) {
        Await.until(type + " of " + job, WAIT, () -> {
            poll(reader, events);
            return events.stream().anyMatch(e -> e.getJobId().equals(job) && e.getType() == type);
        });
    }

    private static <V> void poll(KafkaConsumer<String, V> reader, List<V> into) {
        for (ConsumerRecord<String, V> record : reader.poll(Duration.ofMillis(100))) {
            into.add(record.value());
        }
    }

    private static void assignAll(KafkaConsumer<String, ?> consumer, String topic, int partitions) {
        List<TopicPartition> all = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            all.add(new TopicPartition(topic, p));
        }
        consumer.assign(all);
        consumer.seekToBeginning(all);
    }

    private static EmbeddedKafkaBroker startBroker(int brokerPort, int controllerPort, Path data) {
        return EmbeddedKafkaBroker.builder().ports(brokerPort, controllerPort).dataDir(data).build().start();
    }

    private Path fakeNvidiaSmi() throws IOException {
        Path script = dir.resolve("nvidia-smi");
        Files.writeString(script, "#!/bin/sh\necho '0, GPU-x, Tesla T4, 15360, 0, 0'\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }
}
