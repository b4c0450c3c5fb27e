package io.quanta.audit.testing;

import io.quanta.audit.log.CellLog;
import io.quanta.audit.log.InboxRecord;
import io.quanta.audit.log.RecordedDecision;
import io.quanta.schemas.CellInput;
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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;

/**
 * The whole production topology under a {@link TopologyTestDriver}, driven by the simulator's event loop as a
 * {@link ScheduledCluster}, that keeps what an audit reads: every inbox record (offsets numbered as the driver
 * numbers them, from 0) and every decision. {@link #log} returns a cell's {@link CellLog}.
 */
public final class RecordingCluster implements ScheduledCluster {

    private final TopologyTestDriver driver;
    private final WallClockFollower clock;
    private final TopicCatalogue topics;
    private final String cellId;
    private final TestInputTopic<String, JobRequest> submissions;
    private final TestInputTopic<String, NodeHeartbeat> heartbeats;
    private final TestInputTopic<String, JobEvent> events;
    private final TestInputTopic<String, JobTelemetry> telemetry;
    private final TestOutputTopic<String, NodeCommand> commands;
    private final TestOutputTopic<String, JobStatus> statuses;
    private final TestOutputTopic<byte[], byte[]> deadLetters;
    private final TestOutputTopic<String, CellInput> inbox;
    private final TestOutputTopic<String, SchedulingDecision> decisions;
    private final KeyValueStore<String, CellMeta> meta;
    private final List<InboxRecord> inboxLog = new ArrayList<>();
    private final List<RecordedDecision> decisionLog = new ArrayList<>();
    private long inputs;
    private Instant until = Instant.MAX;

    /** Thrown by an input method once the input time passes {@link #stopAfter}: the recording is complete. */
    public static final class RecordingComplete extends RuntimeException {
        private static final long serialVersionUID = 1L;

        RecordingComplete(Instant at) {
            super("recording complete at " + at, null, false, false);
        }
    }

    /** Ends the recording at the first input later than {@code time} (a log of a fixed span of stream time). */
    public RecordingCluster stopAfter(Instant time) {
        this.until = time;
        return this;
    }

    private void admit(Instant at) {
        if (at.isAfter(until)) {
            throw new RecordingComplete(at);
        }
        inputs++;
    }

    public RecordingCluster(SchedulerSettings settings, String cellId) {
        AvroTrust.trustQuantaSchemas();
        this.cellId = cellId;
        this.topics = TopicCatalogue.from(QuantaConfig.of(Map.of()),
                new AvroSerdeFactory(new InMemorySchemaRegistryClient(), true));
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "quanta-audit-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "recorded:9092");
        try {
            props.put(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("quanta-audit-ttd").toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        driver = new TopologyTestDriver(SchedulerTopology.build(topics, settings,
                StoreOptions.inMemoryWithoutChangelogs()), props, Instant.EPOCH);
        // the scheduler's clock follows the virtual time, one step per virtual hour (rare driver commits)
        clock = new WallClockFollower(Instant.EPOCH, Duration.ofHours(1), driver::advanceWallClockTime);
        submissions = input(topics.submissions());
        heartbeats = input(topics.heartbeats());
        events = input(topics.events());
        telemetry = input(topics.telemetry());
        commands = output(topics.commands());
        statuses = output(topics.status());
        deadLetters = driver.createOutputTopic(topics.deadLetter().name(), new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        inbox = output(topics.inbox());
        decisions = output(topics.decisions());
        meta = driver.getKeyValueStore(SchedulerTopology.CELL_META_STORE);
    }

    @Override
    public void submit(JobSubmitted job, Instant at) {
        admit(at);
        clock.follow(at);
        submissions.pipeInput(job.getJobId(), new JobRequest(job), at);
    }

    @Override
    public void heartbeat(NodeHeartbeat beat) {
        admit(beat.getSentAt());
        clock.follow(beat.getSentAt());
        heartbeats.pipeInput(beat.getNodeId(), beat, beat.getSentAt());
    }

    @Override
    public void event(JobEvent event) {
        admit(event.getAt());
        clock.follow(event.getAt());
        events.pipeInput(event.getJobId(), event, event.getAt());
    }

    @Override
    public void telemetry(JobTelemetry t) {
        admit(t.getReportedAt());
        clock.follow(t.getReportedAt());
        telemetry.pipeInput(t.getJobId(), t, t.getReportedAt());
    }

    @Override
    public SchedulerOutput drain() {
        for (TestRecord<String, CellInput> r : inbox.readRecordsToList()) {
            inboxLog.add(InboxRecord.of(inboxLog.size(), r.timestamp(), r.key(), r.value()));
        }
        List<SchedulingDecision> d = new ArrayList<>();
        for (TestRecord<String, SchedulingDecision> r : decisions.readRecordsToList()) {
            decisionLog.add(new RecordedDecision(decisionLog.size(), r.timestamp(), r.value()));
            d.add(r.value());
        }
        List<NodeCommand> c = commands.readValuesToList();
        List<JobStatus> s = statuses.readValuesToList();
        int dead = deadLetters.readValuesToList().size();
        return c.isEmpty() && d.isEmpty() && s.isEmpty() && dead == 0 ? SchedulerOutput.EMPTY
                : new SchedulerOutput(c, d, s, dead);
    }

    @Override
    public Optional<Instant> nextWakeUp() {
        CellMeta m = meta.get(cellId);
        return m == null || m.nextWakeUpMs() < 0 ? Optional.empty() : Optional.of(Instant.ofEpochMilli(m.nextWakeUpMs()));
    }

    @Override
    public long inputRecords() {
        return inputs;
    }

    /** Everything recorded so far for a cell, as an audit reads it (inbox and decisions in partition 0). */
    public CellLog log(String cell) {
        drain();
        return new CellLog(cell, topics.inbox().name(), 0,
                inboxLog.stream().filter(r -> cell.equals(r.key())).toList(), topics.decisions().name(), 0,
                decisionLog.stream().filter(r -> cell.equals(r.decision().getCellId())).toList());
    }

    @Override
    public void close() {
        driver.close();
    }

    private <V> TestInputTopic<String, V> input(TopicSpec<String, V> spec) {
        return driver.createInputTopic(spec.name(), new StringSerializer(), spec.valueSerde().serializer());
    }

    private <V> TestOutputTopic<String, V> output(TopicSpec<String, V> spec) {
        return driver.createOutputTopic(spec.name(), new StringDeserializer(), spec.valueSerde().deserializer());
    }
}
