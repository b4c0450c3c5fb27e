package io.quanta.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.embedded.EmbeddedKafkaBroker;
import io.quanta.embedded.KafkaStack;
import io.quanta.embedded.KafkaStackExtension;
import io.quanta.node.testing.Await;
import io.quanta.node.testing.Commands;
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
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * The node connector through a broker outage: a private broker (same ports and data when restarted) with the shared
 * registry. Jobs keep running while the broker is down; what happened meanwhile is delivered once it is back, without
 * duplicates.
 */
@ExtendWith(KafkaStackExtension.class)
class NodeConnectorOutageIT {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    private final String nodeId = "outage-node-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<JobEvent> events = new ArrayList<>();
    private final List<NodeHeartbeat> heartbeats = new ArrayList<>();
    private EmbeddedKafkaBroker broker;
    private NodeConnector connector;

    @AfterEach
    void tearDown() {
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
        int brokerPort = freePort();
        int controllerPort = freePort();
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

    private QuantaConfig config(KafkaStack stack, String bootstrap) throws IOException {
        String prefix = "outage" + UUID.randomUUID().toString().substring(0, 8) + ".";
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
        return QuantaConfig.of(values);
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

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }

    private Path fakeNvidiaSmi() throws IOException {
        Path script = dir.resolve("nvidia-smi");
        Files.writeString(script, "#!/bin/sh\necho '0, GPU-x, Tesla T4, 15360, 0, 0'\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }
}
