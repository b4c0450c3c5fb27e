package io.quanta.streams.testing;

import io.quanta.core.policy.PolicyRegistry;
import io.quanta.schemas.DeadLetter;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobRequest;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.JobTelemetry;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.streams.SchedulerSettings;
import io.quanta.streams.SchedulerTopology;
import io.quanta.streams.StoreOptions;
import io.quanta.streams.WallClockFollower;
import io.quanta.streams.app.SchedulerStreamsConfig;
import io.quanta.streams.cell.CellMeta;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.TopicSpec;
import io.quanta.topics.config.QuantaConfig;
import io.quanta.topics.registry.InMemorySchemaRegistryClient;
import io.quanta.topics.registry.SchemaRegistryClient;
import io.quanta.topics.serde.AvroSerdeFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.test.TestRecord;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The real scheduler topology under a {@link TopologyTestDriver}, with an in-memory schema registry, typed input
 * topics and output collectors. Every output read is kept, so a test can look at all records seen so far.
 */
public final class SchedulerDriver implements AutoCloseable {

    public static final String CELL = "cell-0";

    private final TopologyTestDriver driver;
    private final TopicCatalogue topics;
    private final TestInputTopic<String, JobRequest> submissions;
    private final TestInputTopic<String, NodeHeartbeat> heartbeats;
    private final TestInputTopic<String, JobTelemetry> telemetry;
    private final TestInputTopic<String, JobEvent> events;
    private final TestOutputTopic<String, NodeCommand> commandsOut;
    private final TestOutputTopic<String, SchedulingDecision> decisionsOut;
    private final TestOutputTopic<String, JobStatus> statusOut;
    private final TestOutputTopic<String, DeadLetter> deadLettersOut;
    private final List<NodeCommand> commands = new ArrayList<>();
    private final List<SchedulingDecision> decisions = new ArrayList<>();
    private final List<JobStatus> statuses = new ArrayList<>();
    private final List<DeadLetter> deadLetters = new ArrayList<>();
    private final TestOutputTopic<String, byte[]> inboxOut;
    private final List<TestRecord<String, byte[]>> inbox = new ArrayList<>();
    private final WallClockFollower clock;

    public SchedulerDriver(SchedulerSettings settings, StoreOptions stores) {
        this(settings, stores, tempDir());
    }

    public SchedulerDriver(SchedulerSettings settings, StoreOptions stores, Path stateDir) {
        this(settings, stores, stateDir, PolicyRegistry.builtIn());
    }

    public SchedulerDriver(SchedulerSettings settings, StoreOptions stores, PolicyRegistry policies) {
        this(settings, stores, tempDir(), policies);
    }

    public SchedulerDriver(SchedulerSettings settings, StoreOptions stores, Path stateDir, PolicyRegistry policies) {
        this(settings, stores, stateDir, policies, new InMemorySchemaRegistryClient());
    }

    /** The scheduler and the test's producers both on {@code registry} (e.g. one that can be made unavailable). */
    public SchedulerDriver(SchedulerSettings settings, StoreOptions stores, SchemaRegistryClient registry) {
        this(settings, stores, tempDir(), PolicyRegistry.builtIn(), registry);
    }

    private SchedulerDriver(SchedulerSettings settings, StoreOptions stores, Path stateDir, PolicyRegistry policies,
                            SchemaRegistryClient registry) {
        topics = TopicCatalogue.from(QuantaConfig.of(Map.of()), new AvroSerdeFactory(registry, true));
        Topology topology = SchedulerTopology.build(topics, settings, stores, policies);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, settings.applicationId());
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.putAll(SchedulerStreamsConfig.errorHandling(topics));
        driver = new TopologyTestDriver(topology, props, at(0));
        clock = new WallClockFollower(at(0), Duration.ZERO, driver::advanceWallClockTime);
        StringSerializer keys = new StringSerializer();
        submissions = driver.createInputTopic(topics.submissions().name(), keys,
                topics.submissions().valueSerde().serializer());
        heartbeats = driver.createInputTopic(topics.heartbeats().name(), keys,
                topics.heartbeats().valueSerde().serializer());
        telemetry = driver.createInputTopic(topics.telemetry().name(), keys,
                topics.telemetry().valueSerde().serializer());
        events = driver.createInputTopic(topics.events().name(), keys, topics.events().valueSerde().serializer());
        commandsOut = output(topics.commands());
        decisionsOut = output(topics.decisions());
        statusOut = output(topics.status());
        deadLettersOut = output(topics.deadLetter());
        inboxOut = driver.createOutputTopic(topics.inbox().name(), new StringDeserializer(),
                Serdes.ByteArray().deserializer());
    }

    /** Default settings (policy fifo unless given), in-memory stores with changelogs. */
    public static SchedulerDriver withPolicy(String policy) {
        return new SchedulerDriver(SchedulerSettings.defaults().withPolicy(policy), StoreOptions.inMemory());
    }

    private static Instant at(long seconds) {
        return Records.at(seconds);
    }

    private <V> TestOutputTopic<String, V> output(TopicSpec<String, V> topic) {
        return driver.createOutputTopic(topic.name(), new StringDeserializer(), topic.valueSerde().deserializer());
    }

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("quanta-ttd");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    public TopicCatalogue topics() {
        return topics;
    }

    public TopologyTestDriver driver() {
        return driver;
    }

    public void submit(io.quanta.schemas.JobSubmitted job, Instant at) {
        clockAt(at);
        submissions.pipeInput(job.getJobId(), Records.request(job), at);
    }

    /** Pipes a submission under the record key {@code key} (null: no key), whatever its job id. */
    public void submitKeyed(String key, io.quanta.schemas.JobSubmitted job, Instant at) {
        clockAt(at);
        submissions.pipeInput(key, Records.request(job), at);
    }

    public void cancel(String jobId, Instant at) {
        clockAt(at);
        submissions.pipeInput(jobId, Records.cancel(jobId), at);
    }

    public void heartbeat(NodeHeartbeat beat) {
        clockAt(beat.getSentAt());
        heartbeats.pipeInput(beat.getNodeId(), beat, beat.getSentAt());
    }

    /** Pipes a heartbeat stamped {@code at}, without moving the scheduler's wall clock (a skewed producer). */
    public void heartbeatStamped(NodeHeartbeat beat, Instant at) {
        heartbeats.pipeInput(beat.getNodeId(), beat, at);
    }

    public void event(JobEvent event) {
        clockAt(event.getAt());
        events.pipeInput(event.getJobId(), event, event.getAt());
    }

    public void telemetry(JobTelemetry record) {
        clockAt(record.getReportedAt());
        telemetry.pipeInput(record.getJobId(), record, record.getReportedAt());
    }

    /** Pipes raw bytes to a topic (malformed input). */
    public void raw(String topic, String key, byte[] value, Instant at) {
        clockAt(at);
        TestInputTopic<byte[], byte[]> input = driver.createInputTopic(topic, new ByteArraySerializer(),
                new ByteArraySerializer());
        input.pipeInput(key == null ? null : key.getBytes(java.nio.charset.StandardCharsets.UTF_8), value, at);
    }

    /** Pipes raw key and value bytes to a topic. */
    public void rawKey(String topic, byte[] key, byte[] value, Instant at) {
        clockAt(at);
        driver.createInputTopic(topic, new ByteArraySerializer(), new ByteArraySerializer()).pipeInput(key, value, at);
    }

    /**
     * Moves the driver's wall clock (the scheduler's own clock) forward to {@code at}: in production records are
     * stamped by the broker when they arrive, so the scheduler's clock is never behind an input's timestamp by more
     * than the skew it allows.
     */
    public void clockAt(Instant at) {
        clock.follow(at);
    }

    public List<NodeCommand> commands() {
        commands.addAll(commandsOut.readValuesToList());
        return commands;
    }

    public List<SchedulingDecision> decisions() {
        decisions.addAll(decisionsOut.readValuesToList());
        return decisions;
    }

    public List<JobStatus> statuses() {
        statuses.addAll(statusOut.readValuesToList());
        return statuses;
    }

    public List<DeadLetter> deadLetters() {
        deadLetters.addAll(deadLettersOut.readValuesToList());
        return deadLetters;
    }

    /** Every record appended to the cell inbox so far (key, raw value, timestamp), in offset order. */
    public List<TestRecord<String, byte[]>> inbox() {
        inbox.addAll(inboxOut.readRecordsToList());
        return inbox;
    }

    /** Drops the outputs read so far (long runs). */
    public void forget() {
        commands();
        decisions();
        statuses();
        deadLetters();
        inbox();
        commands.clear();
        decisions.clear();
        statuses.clear();
        deadLetters.clear();
        inbox.clear();
    }

    /** The latest status of a job, or null. */
    public JobStatus lastStatus(String jobId) {
        JobStatus last = null;
        for (JobStatus s : statuses()) {
            if (s.getJobId().equals(jobId)) {
                last = s;
            }
        }
        return last;
    }

    /** The cell's meta as stored. */
    public CellMeta meta(String cellId) {
        KeyValueStore<String, CellMeta> store = driver.getKeyValueStore(SchedulerTopology.CELL_META_STORE);
        return store.get(cellId);
    }

    /** The cell's learned service distribution as stored (null before its first completed job). */
    public io.quanta.core.model.ServiceDistribution serviceDistribution(String cellId) {
        KeyValueStore<String, io.quanta.core.model.ServiceDistribution> store =
                driver.getKeyValueStore(SchedulerTopology.SERVICE_STORE);
        return store.get(cellId);
    }

    /** The serialized value bytes of every record written to a topic so far, for byte comparisons. */
    public List<byte[]> rawOutput(String topic) {
        List<byte[]> out = new ArrayList<>();
        driver.createOutputTopic(topic, Serdes.ByteArray().deserializer(), Serdes.ByteArray().deserializer())
                .readValuesToList().forEach(out::add);
        return out;
    }

    @Override
    public void close() {
        driver.close();
    }
}
