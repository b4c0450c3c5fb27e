package io.quanta.streams.cell;

import io.quanta.core.config.PolicyConfig;
import io.quanta.core.model.InterferenceMemory;
import io.quanta.core.model.ServiceDistribution;
import io.quanta.core.policy.SchedulingPolicy;
import io.quanta.schemas.CellInput;
import io.quanta.schemas.DeadLetter;
import io.quanta.schemas.JobStatus;
import io.quanta.schemas.JobSubmitted;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.schemas.SourceRef;
import io.quanta.streams.deadletter.DeadLetters;
import io.quanta.streams.router.SubmissionChecks;
import io.quanta.streams.store.CellKeys;
import io.quanta.streams.store.CellScopedStore;
import io.quanta.streams.store.CellValueStore;
import io.quanta.topics.serde.MalformedRecordException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
 *
 * <p>A step is all or nothing: the engine's outputs are held until it returns, and when it throws, the cell's
 * in-memory state is thrown away and reloaded from the stores (which only the last completed step wrote), nothing is
 * forwarded, and the exception goes on to {@link io.quanta.streams.app.DeadLetterHandler}, which dead-letters the
 * record. So a record the engine cannot handle changes nothing, and a replay of the inbox fails on it the same way.
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
    /**
     * The dropped-telemetry sensor: {@code dropped-telemetry-total} (telemetry records the cells of this task could
     * not use since the task started: no running attempt matches, or a rate that is not a number >= 0) and
     * {@code dropped-telemetry-rate}. The cell's own running count is {@code droppedTelemetry} in its summary.
     */
    public static final String DROPPED_TELEMETRY_OPERATION = "dropped-telemetry";

    private final Names names;
    private final Deserializer<CellInput> inbox;
    private final Supplier<SchedulingPolicy> policies;
    private final PolicyConfig policyConfig;
    private final Duration passInterval;
    private final Duration nodeTimeout;
    private final Duration finishedRetention;
    private final AttemptTimeouts timeouts;
    private final ConfigFingerprint fingerprint;
    private ProcessorContext<String, Object> context;
    private CellRepository repository;
    private Map<String, CellState> cells;
    private CellEngine engine;
    private Output output;
    private Sensor passSensor;
    private Sensor droppedTelemetrySensor;

    public CellSchedulerProcessor(Names names, Deserializer<CellInput> inbox, Supplier<SchedulingPolicy> policies,
                                  PolicyConfig policyConfig, Duration passInterval, Duration nodeTimeout,
                                  Duration finishedRetention, AttemptTimeouts timeouts,
                                  ConfigFingerprint fingerprint) {
        this.names = names;
        this.inbox = inbox;
        this.policies = policies;
        this.policyConfig = policyConfig;
        this.passInterval = passInterval;
        this.nodeTimeout = nodeTimeout;
        this.finishedRetention = finishedRetention;
        this.timeouts = timeouts;
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
        this.droppedTelemetrySensor = context.metrics().addRateTotalSensor(METRICS_SCOPE,
                context.taskId().toString(), DROPPED_TELEMETRY_OPERATION, Sensor.RecordingLevel.INFO);
        this.engine = new CellEngine(policies.get(), passInterval, nodeTimeout, timeouts, fingerprint, passTimer());
        this.output = new Output();
    }

    private PassTimer passTimer() {
        return new PassTimer() {
            @Override
            public long start() {
                return System.nanoTime();
            }

            @Override
            public void stop(long started) {
                passSensor.record((System.nanoTime() - started) / 1e6);
            }
        };
    }

    @Override
    public void close() {
        if (passSensor != null) {
            context.metrics().removeSensor(passSensor);
        }
        if (droppedTelemetrySensor != null) {
            context.metrics().removeSensor(droppedTelemetrySensor);
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
        String refused = refusal(input);
        if (refused != null) {
            deadLetter(record, metadata, refused, "");
            return;
        }
        CellState cell = cells.computeIfAbsent(input.getCellId(), repository::newCell);
        output.begin(Math.max(cell.meta().timeMs(), record.timestamp()));
        long droppedBefore = cell.meta().droppedTelemetry();
        try {
            engine.process(cell, input, record.timestamp(), metadata == null ? -1 : metadata.offset(), output);
        } catch (RuntimeException e) {
            output.discard();
            cells.put(cell.cellId, repository.load(cell.cellId));
            throw new CellStepException("cell " + cell.cellId + " cannot apply this record (its state is "
                    + "unchanged): " + e, e);
        }
        repository.flush(cell);
        output.release();
        for (long d = cell.meta().droppedTelemetry() - droppedBefore; d > 0; d--) {
            droppedTelemetrySensor.record();
        }
        if (!finishedRetention.isZero()) {
            repository.expireFinished(cell, finishedRetention);
        }
    }

    /**
     * Why an inbox record is refused before it reaches a cell, or null: the routers only write valid records, but the
     * inbox is a topic anyone with write access can append to.
     */
    private static String refusal(CellInput input) {
        if (!CellKeys.isValidCellId(input.getCellId())) {
            return "inbox record for an invalid cell id";
        }
        if (input.getInput() instanceof JobSubmitted job) {
            return SubmissionChecks.problem(job).map(p -> "submission in the inbox rejected: " + p).orElse(null);
        }
        return null;
    }

    private void deadLetter(Record<String, byte[]> record, RecordMetadata metadata, String reason, String error) {
        SourceRef source = metadata == null ? null
                : new SourceRef(metadata.topic(), metadata.partition(), metadata.offset());
        // no copy of the value: an inbox record may carry a submission's command line and environment
        DeadLetter letter = DeadLetters.withoutValue(source, record.key() == null ? null
                : record.key().getBytes(StandardCharsets.UTF_8), record.value(), reason, error,
                Instant.ofEpochMilli(record.timestamp()));
        context.forward(new Record<>(DeadLetters.recordKey(record.key()), letter, record.timestamp()),
                names.deadLetterSink());
    }

    private <V> CellScopedStore<V> scoped(String name) {
        KeyValueStore<String, V> store = context.getStateStore(name);
        return CellScopedStore.of(store);
    }

    private <V> CellValueStore<V> value(String name) {
        KeyValueStore<String, V> store = context.getStateStore(name);
        return CellValueStore.of(store);
    }

    /** A record the cell engine failed on; the cell's state was restored before it was thrown. */
    static final class CellStepException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CellStepException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Holds the engine's outputs of one step, stamped with the cell's stream time, and forwards them to the sinks
     * once the step completed ({@link #release}), or drops them when it failed ({@link #discard}).
     */
    private final class Output implements CellOutput {
        private record Pending(String sink, Record<String, Object> record) {
        }

        private final List<Pending> pending = new ArrayList<>();
        private long timestamp;

        void begin(long stepTimestamp) {
            pending.clear();
            timestamp = stepTimestamp;
        }

        void release() {
            for (Pending p : pending) {
                context.forward(p.record(), p.sink());
            }
            pending.clear();
        }

        void discard() {
            pending.clear();
        }

        private void hold(String key, Object value, String sink) {
            pending.add(new Pending(sink, new Record<>(key, value, timestamp)));
        }

        @Override
        public void command(NodeCommand command) {
            hold(command.getNodeId(), command, names.commandsSink());
        }

        @Override
        public void decision(SchedulingDecision decision) {
            hold(decision.getCellId(), decision, names.decisionsSink());
        }

        @Override
        public void status(JobStatus status) {
            hold(status.getJobId(), status, names.statusSink());
        }

        @Override
        public void deadLetter(String key, DeadLetter deadLetter) {
            hold(DeadLetters.recordKey(key), deadLetter, names.deadLetterSink());
        }
    }
}
