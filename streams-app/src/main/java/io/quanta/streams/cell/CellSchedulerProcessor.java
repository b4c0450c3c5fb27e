package io.quanta.streams.cell;

import io.quanta.core.model.InterferenceMemory;
import io.quanta.core.model.ServiceDistribution;
import io.quanta.core.policy.PolicyConfig;
import io.quanta.core.policy.SchedulingPolicy;
import io.quanta.schemas.CellInput;
import io.quanta.schemas.DeadLetter;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.schemas.SourceRef;
import io.quanta.streams.DeadLetters;
import io.quanta.streams.store.CellScopedStore;
import io.quanta.streams.store.CellValueStore;
import io.quanta.topics.serde.MalformedRecordException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The cell scheduler processor of sub-topology 2 (thin): decodes each inbox record (undecodable bytes go to the dead
 * letters), hands it to the {@link CellEngine} with its cell's in-memory state, forwards the engine's outputs to the
 * sinks and writes the changed state through to the stores. All cells of the task are loaded from the stores in
 * {@link #init}.
 */
public final class CellSchedulerProcessor implements Processor<String, byte[], String, Object> {

    /** The names this processor needs: its stores and its sinks. */
    public record Names(String jobs, String finishedJobs, String finishedIndex, String nodes, String assignments,
                        String cellMeta, String serviceDistribution, String interference, String commandsSink,
                        String decisionsSink, String statusSink, String deadLetterSink) {
    }

    /**
     * Scope of the scheduler's own Kafka Streams metrics: group {@code stream-quanta-cell-scheduler-metrics}, tagged
     * with the task ({@code quanta-cell-scheduler-id}) and the stream thread.
     */
    public static final String METRICS_SCOPE = "quanta-cell-scheduler";
    /**
     * The scheduling-pass sensor: {@code scheduling-pass-latency-avg} and {@code -latency-max} (milliseconds of wall
     * clock per pass), {@code scheduling-pass-rate} (passes per second) and {@code scheduling-pass-total}.
     */
    public static final String PASS_OPERATION = "scheduling-pass";

    private final Names names;
    private final Deserializer<CellInput> inbox;
    private final Supplier<SchedulingPolicy> policies;
    private final PolicyConfig policyConfig;
    private final Duration passInterval;
    private final Duration nodeTimeout;
    private final Duration finishedRetention;
    private final ConfigFingerprint fingerprint;
    private ProcessorContext<String, Object> context;
    private CellRepository repository;
    private Map<String, CellState> cells;
    private CellEngine engine;
    private Output output;
    private Sensor passSensor;

    public CellSchedulerProcessor(Names names, Deserializer<CellInput> inbox, Supplier<SchedulingPolicy> policies,
                                  PolicyConfig policyConfig, Duration passInterval, Duration nodeTimeout,
                                  Duration finishedRetention, ConfigFingerprint fingerprint) {
        this.names = names;
        this.inbox = inbox;
        this.policies = policies;
        this.policyConfig = policyConfig;
        this.passInterval = passInterval;
        this.nodeTimeout = nodeTimeout;
        this.finishedRetention = finishedRetention;
        this.fingerprint = fingerprint;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.repository = new CellRepository(scoped(names.jobs()), scoped(names.finishedJobs()),
                scoped(names.finishedIndex()), scoped(names.nodes()), scoped(names.assignments()),
                value(names.cellMeta()), this.<ServiceDistribution>value(names.serviceDistribution()),
                this.<InterferenceMemory>value(names.interference()), policyConfig);
        this.cells = repository.loadAll();
        this.passSensor = context.metrics().addLatencyRateTotalSensor(METRICS_SCOPE, context.taskId().toString(),
                PASS_OPERATION, Sensor.RecordingLevel.INFO);
        this.engine = new CellEngine(policies.get(), passInterval, nodeTimeout, fingerprint, new PassTimer() {
            @Override
            public long start() {
                return System.nanoTime();
            }

            @Override
            public void stop(long started) {
                passSensor.record((System.nanoTime() - started) / 1e6);
            }
        });
        this.output = new Output();
    }

    @Override
    public void close() {
        if (passSensor != null) {
            context.metrics().removeSensor(passSensor);
        }
    }

    @Override
    public void process(Record<String, byte[]> record) {
        RecordMetadata metadata = context.recordMetadata().orElse(null);
        String topic = metadata == null ? "" : metadata.topic();
        CellInput input;
        try {
            input = inbox.deserialize(topic, record.value());
        } catch (MalformedRecordException e) {
            deadLetter(record, metadata, e.getMessage(), e.getClass().getName());
            return;
        }
        if (record.key() != null && !record.key().equals(input.getCellId())) {
            deadLetter(record, metadata, "inbox record keyed " + record.key() + " is for cell " + input.getCellId(),
                    "");
            return;
        }
        CellState cell = cells.computeIfAbsent(input.getCellId(), repository::newCell);
        output.timestamp = Math.max(cell.meta.timeMs, record.timestamp());
        engine.process(cell, input, record.timestamp(), metadata == null ? -1 : metadata.offset(), output);
        repository.flush(cell);
        if (!finishedRetention.isZero()) {
            repository.expireFinished(cell, finishedRetention);
        }
    }

    private void deadLetter(Record<String, byte[]> record, RecordMetadata metadata, String reason, String error) {
        SourceRef source = metadata == null ? null
                : new SourceRef(metadata.topic(), metadata.partition(), metadata.offset());
        DeadLetter letter = DeadLetters.of(source, record.key() == null ? null
                : record.key().getBytes(StandardCharsets.UTF_8), record.value(), reason, error,
                Instant.ofEpochMilli(record.timestamp()));
        context.forward(new Record<>(record.key(), letter, record.timestamp()), names.deadLetterSink());
    }

    private <V> CellScopedStore<V> scoped(String name) {
        KeyValueStore<String, V> store = context.getStateStore(name);
        return CellScopedStore.of(store);
    }

    private <V> CellValueStore<V> value(String name) {
        KeyValueStore<String, V> store = context.getStateStore(name);
        return CellValueStore.of(store);
    }

    /** Forwards the engine's outputs to the sinks, stamped with the cell's stream time. */
    private final class Output implements CellOutput {
        long timestamp;

        @Override
        public void command(NodeCommand command) {
            context.forward(new Record<>(command.getNodeId(), command, timestamp), names.commandsSink());
        }

        @Override
        public void decision(SchedulingDecision decision) {
            context.forward(new Record<>(decision.getCellId(), decision, timestamp), names.decisionsSink());
        }

        @Override
        public void status(JobStatus status) {
            context.forward(new Record<>(status.getJobId(), status, timestamp), names.statusSink());
        }

        @Override
        public void deadLetter(String key, DeadLetter deadLetter) {
            context.forward(new Record<>(key, deadLetter, timestamp), names.deadLetterSink());
        }
    }
}
