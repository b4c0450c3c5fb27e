package io.quanta.topics;

import io.quanta.schemas.CellInput;
import io.quanta.schemas.DeadLetter;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobRequest;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.JobTelemetry;
import io.quanta.schemas.NodeAdmission;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeHeartbeat;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.topics.config.ConfigSections;
import io.quanta.topics.config.ConnectionConfigSection;
import io.quanta.topics.config.QuantaConfig;
import io.quanta.topics.serde.SerdeFactory;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * Every Quanta topic as a typed {@link TopicSpec}, built once from the configuration (names, partitions, retention,
 * replication) and a {@link SerdeFactory}. Keys are plain UTF-8 strings everywhere. Immutable; inject it rather than
 * naming topics in code.
 */
public final class TopicCatalogue {

    private final Map<QuantaTopic, TopicSpec<String, ?>> specs;

    /** The value type of every topic. */
    private static final Map<QuantaTopic, Class<? extends SpecificRecord>> VALUE_TYPES = valueTypes();

    private static Map<QuantaTopic, Class<? extends SpecificRecord>> valueTypes() {
        Map<QuantaTopic, Class<? extends SpecificRecord>> types = new EnumMap<>(QuantaTopic.class);
        types.put(QuantaTopic.SUBMISSIONS, JobRequest.class);
        types.put(QuantaTopic.HEARTBEATS, NodeHeartbeat.class);
        types.put(QuantaTopic.TELEMETRY, JobTelemetry.class);
        types.put(QuantaTopic.EVENTS, JobEvent.class);
        types.put(QuantaTopic.INBOX, CellInput.class);
        types.put(QuantaTopic.COMMANDS, NodeCommand.class);
        types.put(QuantaTopic.DECISIONS, SchedulingDecision.class);
        types.put(QuantaTopic.STATUS, JobStatus.class);
        types.put(QuantaTopic.DEADLETTER, DeadLetter.class);
        types.put(QuantaTopic.ADMISSIONS, NodeAdmission.class);
        return java.util.Collections.unmodifiableMap(types);
    }

    private TopicCatalogue(Map<QuantaTopic, TopicSpec<String, ?>> specs) {
        this.specs = java.util.Collections.unmodifiableMap(new EnumMap<>(specs));
    }

    /** The configuration sections of this module only (connection and topics): what a catalogue reads. */
    public static ConfigSections configSections() {
        return ConfigSections.of(List.of(new ConnectionConfigSection(), new TopicConfigSection()));
    }

    /** The catalogue described by {@code config}, with value serdes from {@code serdes}. */
    public static TopicCatalogue from(QuantaConfig config, SerdeFactory serdes) {
        Builder b = new Builder(config, serdes);
        Map<QuantaTopic, TopicSpec<String, ?>> specs = new EnumMap<>(QuantaTopic.class);
        VALUE_TYPES.forEach((topic, type) -> specs.put(topic, b.spec(topic, type)));
        return new TopicCatalogue(specs);
    }

    /**
     * The catalogue for creating and verifying topics only, without a schema registry: its value serdes fail on use
     * with an error naming {@code schema.registry.url}.
     */
    public static TopicCatalogue forAdministration(QuantaConfig config) {
        return from(config, new UnconfiguredSerdeFactory());
    }

    @SuppressWarnings("unchecked")
    private <V> TopicSpec<String, V> get(QuantaTopic topic) {
        return (TopicSpec<String, V>) specs.get(topic);
    }

    /** {@code quanta.nodes.admissions} (key nodeId, compacted): which nodes an operator admitted. */
    public TopicSpec<String, NodeAdmission> admissions() {
        return get(QuantaTopic.ADMISSIONS);
    }

    /** {@code quanta.jobs.submissions} (key jobId). */
    public TopicSpec<String, JobRequest> submissions() {
        return get(QuantaTopic.SUBMISSIONS);
    }

    /** {@code quanta.nodes.heartbeats} (key nodeId). */
    public TopicSpec<String, NodeHeartbeat> heartbeats() {
        return get(QuantaTopic.HEARTBEATS);
    }

    /** {@code quanta.jobs.telemetry} (key jobId). */
    public TopicSpec<String, JobTelemetry> telemetry() {
        return get(QuantaTopic.TELEMETRY);
    }

    /** {@code quanta.jobs.events} (key jobId). */
    public TopicSpec<String, JobEvent> events() {
        return get(QuantaTopic.EVENTS);
    }

    /** {@code quanta.cells.inbox} (key cellId): the cell scheduler's write-ahead log, long retention. */
    public TopicSpec<String, CellInput> inbox() {
        return get(QuantaTopic.INBOX);
    }

    /** {@code quanta.nodes.commands} (key nodeId). */
    public TopicSpec<String, NodeCommand> commands() {
        return get(QuantaTopic.COMMANDS);
    }

    /** {@code quanta.scheduler.decisions} (key cellId): the decision audit, long retention. */
    public TopicSpec<String, SchedulingDecision> decisions() {
        return get(QuantaTopic.DECISIONS);
    }

    /** {@code quanta.jobs.status} (key jobId, compacted; null values read as tombstones). */
    public TopicSpec<String, JobStatus> status() {
        return get(QuantaTopic.STATUS);
    }

    /** {@code quanta.deadletter} (key: the original record's key). */
    public TopicSpec<String, DeadLetter> deadLetter() {
        return get(QuantaTopic.DEADLETTER);
    }

    /** The spec of one topic. */
    public TopicSpec<String, ?> spec(QuantaTopic topic) {
        return specs.get(topic);
    }

    /**
     * The value schema of every topic by its registry subject ({@code <topic>-value}), in {@link QuantaTopic} order:
     * what {@code quanta topics apply} registers.
     */
    public Map<String, Schema> valueSchemas() {
        Map<String, Schema> out = new LinkedHashMap<>();
        specs.forEach((topic, spec) -> out.put(spec.valueSubject(),
                SpecificData.getForClass(VALUE_TYPES.get(topic)).getSchema(VALUE_TYPES.get(topic))));
        return out;
    }

    /** Every spec, in {@link QuantaTopic} order. */
    public List<TopicSpec<String, ?>> all() {
        return List.copyOf(specs.values());
    }

    private record Builder(QuantaConfig config, SerdeFactory serdes) {
        <V extends SpecificRecord> TopicSpec<String, V> spec(QuantaTopic topic, Class<V> valueType) {
            boolean compacted = topic.cleanupPolicy() == CleanupPolicy.COMPACT;
            long retention = compacted ? TopicSpec.INFINITE_RETENTION : config.getLong(topic.retentionKey());
            Serde<V> valueSerde = serdes.valueSerde(valueType, compacted);
            return new TopicSpec<>(config.getString(topic.nameKey()), config.getInt(topic.partitionsKey()),
                    config.getShort(TopicConfigSection.REPLICATION_FACTOR), topic.cleanupPolicy(), retention,
                    topic.timestampType(), Serdes.String(), valueSerde);
        }
    }
}
