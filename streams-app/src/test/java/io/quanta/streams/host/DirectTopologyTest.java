package io.quanta.streams.host;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.event;
import static io.quanta.streams.testing.Records.job;
import static io.quanta.streams.testing.Records.node;
import static io.quanta.streams.testing.Records.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.core.policy.PolicyRegistry;
import io.quanta.schemas.JobEventType;
import io.quanta.streams.SchedulerSettings;
import io.quanta.streams.SchedulerTopology;
import io.quanta.streams.StoreOptions;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.TopicSpec;
import io.quanta.topics.config.QuantaConfig;
import io.quanta.topics.registry.InMemorySchemaRegistryClient;
import io.quanta.topics.serde.AvroSerdeFactory;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.BiConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

/**
 * The production host runs the scheduler as Kafka's TopologyTestDriver does: the same inputs give the same records,
 * byte for byte and with the same timestamps, on every output topic, inbox offsets included.
 */
class DirectTopologyTest {

    private static final String CELL = "cell-0";

    /** One input: its topic, key and value, at a time. */
    private record Input(TopicSpec<String, Object> topic, String key, Object value, Instant at) {
    }

    @Test
    void shouldWriteWhatTheTopologyTestDriverWritesOnEveryTopic() throws Exception {
        SchedulerSettings settings = SchedulerSettings.defaults().withPolicy("tiresias-las");
        TopicCatalogue topics = TopicCatalogue.from(QuantaConfig.of(Map.of()),
                new AvroSerdeFactory(new InMemorySchemaRegistryClient(), true));
        List<Input> inputs = inputs(topics);

        List<String> driven = new ArrayList<>();
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "direct-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("direct-test").toString());
        try (TopologyTestDriver driver = new TopologyTestDriver(SchedulerTopology.build(topics, settings,
                StoreOptions.inMemoryWithoutChangelogs()), props, at(0))) {
            for (Input in : inputs) {
                driver.createInputTopic(in.topic().name(), new StringSerializer(),
                        in.topic().valueSerde().serializer()).pipeInput(in.key(), in.value(), in.at());
            }
            for (TopicSpec<String, ?> topic : topics.all()) {
                TestOutputTopic<byte[], byte[]> out = driver.createOutputTopic(topic.name(),
                        new ByteArrayDeserializer(), new ByteArrayDeserializer());
                for (TestRecord<byte[], byte[]> r : out.readRecordsToList()) {
                    driven.add(describe(topic.name(), r.key(), r.value(), r.timestamp()));
                }
            }
        }

        List<String> hosted = new ArrayList<>();
        DirectTopology direct = new DirectTopology("direct-test", at(0).toEpochMilli());
        SchedulerTopology.wire(direct, topics, settings, PolicyRegistry.builtIn());
        direct.start();
        StringSerializer keys = new StringSerializer();
        for (Input in : inputs) {
            String name = in.topic().name();
            direct.pipe(name, keys.serialize(name, in.key()), in.topic().valueSerde().serializer()
                    .serialize(name, in.value()), in.at().toEpochMilli());
        }
        for (TopicSpec<String, ?> topic : topics.all()) {
            for (DirectTopology.Produced r : direct.readOutput(topic.name())) {
                hosted.add(describe(topic.name(), r.key(), r.value(), r.timestamp()));
            }
        }
        direct.close();

        assertThat(driven).as("the driver's outputs").hasSizeGreaterThan(10);
        assertThat(hosted).containsExactlyElementsOf(driven);
    }

    @SuppressWarnings("unchecked")
    private static List<Input> inputs(TopicCatalogue topics) {
        var submissions = (TopicSpec<String, Object>) (TopicSpec<String, ?>) topics.submissions();
        var heartbeats = (TopicSpec<String, Object>) (TopicSpec<String, ?>) topics.heartbeats();
        var events = (TopicSpec<String, Object>) (TopicSpec<String, ?>) topics.events();
        List<Input> in = new ArrayList<>();
        BiConsumer<String, Long> beat = (n, s) -> in.add(new Input(heartbeats, n, node(n, CELL, 4, 1, at(s)).build(),
                at(s)));
        beat.accept("n1", 0L);
        beat.accept("n2", 0L);
        in.add(new Input(submissions, "a", request(job("a", 4).build()), at(1)));
        in.add(new Input(submissions, "b", request(job("b", 2).build()), at(2)));
        in.add(new Input(submissions, "bad id", request(job("bad id", 1).build()), at(3)));
        in.add(new Input(events, "a", event("a", 1, "n1", JobEventType.STARTED, at(4)), at(4)));
        beat.accept("n1", 30L);
        in.add(new Input(events, "a", event("a", 1, "n1", JobEventType.COMPLETED, at(40)), at(40)));
        beat.accept("n2", 60L);
        return in;
    }

    private static String describe(String topic, byte[] key, byte[] value, long timestamp) {
        return topic + " " + (key == null ? "null" : new String(key, java.nio.charset.StandardCharsets.UTF_8)) + " @"
                + timestamp + " " + java.util.HexFormat.of().formatHex(value == null ? new byte[0] : value);
    }
}
