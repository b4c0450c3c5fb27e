package io.quanta.sim.topology;

import io.quanta.core.policy.PolicyConfig;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobRequest;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.JobSubmitted;
import io.quanta.schemas.JobTelemetry;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.sim.engine.ScheduledCluster;
import io.quanta.sim.engine.SchedulerOutput;
import io.quanta.streams.SchedulerSettings;
import io.quanta.streams.SchedulerTopology;
import io.quanta.streams.StoreOptions;
import io.quanta.streams.WallClockFollower;
import io.quanta.streams.cell.CellMeta;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.TopicSpec;
import io.quanta.topics.config.QuantaConfig;
import io.quanta.topics.registry.InMemorySchemaRegistryClient;
import io.quanta.topics.serde.AvroSerdeFactory;
import io.quanta.topics.serde.AvroTrust;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The real cell-scheduler topology ({@link SchedulerTopology#build}, the same processors and store facades as
 * production) under a {@link TopologyTestDriver}, seen by the simulator as a {@link ScheduledCluster}. Stores are
 * in-memory without changelogs (speed; the driver would otherwise keep every changelog record), the schema registry is
 * in memory, and every record goes through the production Avro serdes in the Confluent wire format. The next wake-up
 * is read from the cell-meta store ({@link CellMeta#nextWakeUpMs()}).
 */
public final class TopologyScheduler implements ScheduledCluster {

    private final TopologyTestDriver driver;
    private final WallClockFollower clock;
    private final Path stateDir;
    private final String cellId;
    private final TestInputTopic<String, JobRequest> submissions;
    private final TestInputTopic<String, NodeHeartbeat> heartbeats;
    private final TestInputTopic<String, JobEvent> events;
    private final TestInputTopic<String, JobTelemetry> telemetry;
    private final TestOutputTopic<String, NodeCommand> commands;
    private final TestOutputTopic<String, SchedulingDecision> decisions;
    private final TestOutputTopic<String, JobStatus> statuses;
    private final TestOutputTopic<byte[], byte[]> deadLetters;
    private final TestOutputTopic<byte[], byte[]> inbox;
    private final KeyValueStore<String, CellMeta> cellMeta;
    private long inputs;
    private long passesAtClose = -1;

    private TopologyScheduler(SchedulerSettings settings, String cellId) {
        AvroTrust.trustQuantaSchemas();
        this.cellId = cellId;
        TopicCatalogue topics = TopicCatalogue.from(QuantaConfig.of(Map.of()),
                new AvroSerdeFactory(new InMemorySchemaRegistryClient(), true));
        try {
            this.stateDir = Files.createTempDirectory("quanta-sim-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a state directory for the simulation", e);
        }
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "quanta-simulator");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "simulated:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        this.driver = new TopologyTestDriver(SchedulerTopology.build(topics, settings,
                StoreOptions.inMemoryWithoutChangelogs()), props, Instant.EPOCH);
        // the scheduler's clock follows the virtual time, one step per virtual hour (rare driver commits)
        clock = new WallClockFollower(Instant.EPOCH, Duration.ofHours(1), driver::advanceWallClockTime);
        this.submissions = input(topics.submissions());
        this.heartbeats = input(topics.heartbeats());
        this.events = input(topics.events());
        this.telemetry = input(topics.telemetry());
        this.commands = output(topics.commands());
        this.decisions = output(topics.decisions());
        this.statuses = output(topics.status());
        this.deadLetters = driver.createOutputTopic(topics.deadLetter().name(), new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        this.inbox = driver.createOutputTopic(topics.inbox().name(), new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        this.cellMeta = driver.getKeyValueStore(SchedulerTopology.CELL_META_STORE);
    }

    /**
     * The topology with the policy of {@code policyParams} ({@code policy} = name), the given node timeout, and every
     * other {@code scheduler.*} setting at its default (pass interval 10 s, default cell {@code cell-0}).
     */
    public static TopologyScheduler create(Map<String, String> policyParams, Duration nodeTimeout) {
        SchedulerSettings settings = SchedulerSettings.defaults().withPolicy(PolicyConfig.of(policyParams))
                .withNodeTimeout(nodeTimeout);
        return new TopologyScheduler(settings, settings.routing().defaultCell());
    }

    /** The topology with explicit settings; {@code cellId} is the cell whose wake-up the simulator follows. */
    public static TopologyScheduler create(SchedulerSettings settings, String cellId) {
        return new TopologyScheduler(settings, cellId);
    }

    @Override
    public void submit(JobSubmitted job, Instant at) {
        inputs++;
        clock.follow(at);
        submissions.pipeInput(job.getJobId(), new JobRequest(job), at);
    }

    @Override
    public void heartbeat(NodeHeartbeat heartbeat) {
        inputs++;
        clock.follow(heartbeat.getSentAt());
        heartbeats.pipeInput(heartbeat.getNodeId(), heartbeat, heartbeat.getSentAt());
    }

    @Override
    public void event(JobEvent event) {
        inputs++;
        clock.follow(event.getAt());
        events.pipeInput(event.getJobId(), event, event.getAt());
    }

    @Override
    public void telemetry(JobTelemetry t) {
        inputs++;
        clock.follow(t.getReportedAt());
        telemetry.pipeInput(t.getJobId(), t, t.getReportedAt());
    }

    @Override
    public SchedulerOutput drain() {
        if (!inbox.isEmpty()) {
            inbox.readValuesToList();
        }
        List<NodeCommand> c = commands.isEmpty() ? List.of() : commands.readValuesToList();
        List<SchedulingDecision> d = decisions.isEmpty() ? List.of() : decisions.readValuesToList();
        List<JobStatus> s = statuses.isEmpty() ? List.of() : statuses.readValuesToList();
        int dead = deadLetters.isEmpty() ? 0 : deadLetters.readValuesToList().size();
        return c.isEmpty() && d.isEmpty() && s.isEmpty() && dead == 0 ? SchedulerOutput.EMPTY
                : new SchedulerOutput(c, d, s, dead);
    }

    @Override
    public Optional<Instant> nextWakeUp() {
        CellMeta meta = cellMeta.get(cellId);
        if (meta == null || meta.nextWakeUpMs() < 0) {
            return Optional.empty();
        }
        return Optional.of(Instant.ofEpochMilli(meta.nextWakeUpMs()));
    }

    @Override
    public long inputRecords() {
        return inputs;
    }

    /** Scheduling passes the cell has run so far (also after {@link #close()}: the count at closing). */
    public long passes() {
        if (passesAtClose >= 0) {
            return passesAtClose;
        }
        CellMeta meta = cellMeta.get(cellId);
        return meta == null ? 0 : meta.passes();
    }

    @Override
    public void close() {
        passesAtClose = passes();
        driver.close();
        try (Stream<Path> files = Files.walk(stateDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a temporary directory
        }
    }

    private <V> TestInputTopic<String, V> input(TopicSpec<String, V> spec) {
        return driver.createInputTopic(spec.name(), new StringSerializer(), spec.valueSerde().serializer());
    }

    private <V> TestOutputTopic<String, V> output(TopicSpec<String, V> spec) {
        return driver.createOutputTopic(spec.name(), new StringDeserializer(), spec.valueSerde().deserializer());
    }
}
