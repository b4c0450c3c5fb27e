package io.quanta.sim.topology;

import io.quanta.core.config.PolicyConfig;
import io.quanta.core.policy.PolicyRegistry;
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
import io.quanta.streams.WallClockFollower;
import io.quanta.streams.cell.CellMeta;
import io.quanta.streams.host.DirectTopology;
import io.quanta.streams.host.HostStore;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.TopicSpec;
import io.quanta.topics.config.QuantaConfig;
import io.quanta.topics.registry.InMemorySchemaRegistryClient;
import io.quanta.topics.serde.AvroSerdeFactory;
import io.quanta.topics.serde.AvroTrust;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The real scheduler topology ({@link SchedulerTopology#wire}, the same processors, serdes and store facades as
 * production) run by a {@link DirectTopology}, seen by the simulator as a {@link ScheduledCluster}. Stores are
 * in memory, the schema registry is in memory, and every record goes through the production Avro serdes in the
 * Confluent wire format. The next wake-up is read from the cell-meta store ({@link CellMeta#nextWakeUpMs()}).
 */
public final class TopologyScheduler implements ScheduledCluster {

    /** Sees every record the topology wrote to a topic when {@link #drain} reads it (audit tests record logs so). */
    @FunctionalInterface
    public interface Tap {
        void written(String topic, DirectTopology.Produced record);
    }

    private static final StringSerializer KEYS = new StringSerializer();

    private final DirectTopology topology;
    private final TopicCatalogue topics;
    private final WallClockFollower clock;
    private final String cellId;
    private final HostStore<CellMeta> cellMeta;
    private final Tap tap;
    private long inputs;
    private long passesAtClose = -1;

    private TopologyScheduler(SchedulerSettings settings, String cellId, Tap tap) {
        AvroTrust.trustQuantaSchemas();
        this.cellId = cellId;
        this.tap = tap;
        this.topics = TopicCatalogue.from(QuantaConfig.of(Map.of()),
                new AvroSerdeFactory(new InMemorySchemaRegistryClient(), true));
        this.topology = new DirectTopology("quanta-simulator", Instant.EPOCH.toEpochMilli());
        SchedulerTopology.wire(topology, topics, settings, PolicyRegistry.builtIn());
        topology.start();
        // the scheduler's clock follows the virtual time, one step per virtual hour
        clock = new WallClockFollower(Instant.EPOCH, Duration.ofHours(1), topology::advanceWallClockTime);
        this.cellMeta = topology.store(SchedulerTopology.CELL_META_STORE);
    }
    /**
     * The topology with the policy of {@code policyParams} ({@code policy} = name), the given node timeout, and every
     * other {@code scheduler.*} setting at its default (pass interval 10 s, default cell {@code cell-0}).
     */
    public static TopologyScheduler create(Map<String, String> policyParams, Duration nodeTimeout) {
        SchedulerSettings settings = SchedulerSettings.defaults().withPolicy(PolicyConfig.of(policyParams))
                .withNodeTimeout(nodeTimeout);
        return new TopologyScheduler(settings, settings.routing().defaultCell(), (topic, record) -> { });
    }

    /** The topology with explicit settings; {@code cellId} is the cell whose wake-up the simulator follows. */
    public static TopologyScheduler create(SchedulerSettings settings, String cellId) {
        return create(settings, cellId, (topic, record) -> { });
    }

    /** The topology with explicit settings, showing {@code tap} every record it writes. */
    public static TopologyScheduler create(SchedulerSettings settings, String cellId, Tap tap) {
        return new TopologyScheduler(settings, cellId, tap);
    }

    /** The topics (names and serdes) the topology reads and writes. */
    public TopicCatalogue topics() {
        return topics;
    }

    @Override
    public void submit(JobSubmitted job, Instant at) {
        inputs++;
        clock.follow(at);
        pipe(topics.submissions(), job.getJobId(), new JobRequest(job), at);
    }

    @Override
    public void heartbeat(NodeHeartbeat heartbeat) {
        inputs++;
        clock.follow(heartbeat.getSentAt());
        pipe(topics.heartbeats(), heartbeat.getNodeId(), heartbeat, heartbeat.getSentAt());
    }

    @Override
    public void event(JobEvent event) {
        inputs++;
        clock.follow(event.getAt());
        pipe(topics.events(), event.getJobId(), event, event.getAt());
    }

    @Override
    public void telemetry(JobTelemetry t) {
        inputs++;
        clock.follow(t.getReportedAt());
        pipe(topics.telemetry(), t.getJobId(), t, t.getReportedAt());
    }

    @Override
    public SchedulerOutput drain() {
        read(topics.inbox().name());
        List<NodeCommand> c = values(topics.commands());
        List<SchedulingDecision> d = values(topics.decisions());
        List<JobStatus> s = values(topics.status());
        int dead = read(topics.deadLetter().name()).size();
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
        topology.close();
    }

    private List<DirectTopology.Produced> read(String topic) {
        List<DirectTopology.Produced> records = topology.readOutput(topic);
        records.forEach(r -> tap.written(topic, r));
        return records;
    }

    private <V> void pipe(TopicSpec<String, V> spec, String key, V value, Instant at) {
        String topic = spec.name();
        topology.pipe(topic, KEYS.serialize(topic, key), spec.valueSerde().serializer().serialize(topic, value),
                at.toEpochMilli());
    }

    private <V> List<V> values(TopicSpec<String, V> spec) {
        List<DirectTopology.Produced> records = read(spec.name());
        if (records.isEmpty()) {
            return List.of();
        }
        Deserializer<V> values = spec.valueSerde().deserializer();
        List<V> out = new ArrayList<>(records.size());
        records.forEach(r -> out.add(values.deserialize(spec.name(), r.headers(), r.value())));
        return out;
    }
}
