package io.quanta.streams.router;

import io.quanta.schemas.CellInput;
import io.quanta.schemas.DeadLetter;
import io.quanta.schemas.SourceRef;
import io.quanta.streams.deadletter.DeadLetters;
import io.quanta.topics.serde.MalformedRecordException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A router of sub-topology 1 (thin): reads raw bytes, refuses values over the size limit and records stamped too far
 * ahead of the scheduler's clock, decodes the rest with the topic's Avro serde (undecodable bytes go to the dead
 * letters with the raw bytes and the reason instead of stopping the app), lets its {@link InputRoute} validate and
 * route the record, and forwards the results: cell inputs to the inbox (keyed by cell), REJECTED statuses, dead
 * letters (with a bounded copy of the raw value, none for submissions: {@link InputRoute#carriesJobSecrets}). Nothing
 * is dropped silently; anything else a record makes throw reaches
 * {@link io.quanta.streams.app.DeadLetterHandler}.
 *
 * <p>The clock check is the one place the scheduler reads a clock ({@link ProcessorContext#currentSystemTimeMs()}):
 * it only decides whether a record enters the inbox, and the inbox is what audit replay reads, so decisions stay a
 * function of the log.
 *
 * @param <V> the decoded value type
 */
public final class InputRouterProcessor<V> implements Processor<byte[], byte[], String, Object> {

    private static final Logger LOG = LoggerFactory.getLogger(InputRouterProcessor.class);

    /** The sinks a router writes to. */
    public record Sinks(String inbox, String status, String deadLetter) {
    }

    /** What a router refuses before decoding: values over {@code maxBytes}, timestamps over {@code maxSkewMs} ahead. */
    public record Limits(int maxBytes, long maxSkewMs) {
    }

    private final Deserializer<V> decoder;
    private final InputRoute<V> route;
    private final Sinks sinks;
    private final Limits limits;
    private final NodeAuthenticator<V> authenticator;
    private ProcessorContext<String, Object> context;

    public InputRouterProcessor(Deserializer<V> decoder, InputRoute<V> route, Sinks sinks, Limits limits) {
        this(decoder, route, sinks, limits, null);
    }

    /**
     * @param authenticator checks that a node record comes from the admitted node it names; null = no node
     *                      authentication
     */
    public InputRouterProcessor(Deserializer<V> decoder, InputRoute<V> route, Sinks sinks, Limits limits,
                                NodeAuthenticator<V> authenticator) {
        this.decoder = decoder;
        this.route = route;
        this.sinks = sinks;
        this.limits = limits;
        this.authenticator = authenticator;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        route.init(context::getStateStore);
        if (authenticator != null) {
            authenticator.init(context::getStateStore);
        }
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        RecordMetadata metadata = context.recordMetadata().orElseThrow();
        SourceRef source = new SourceRef(metadata.topic(), metadata.partition(), metadata.offset());
        String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
        Instant at = Instant.ofEpochMilli(record.timestamp());
        String refused = refusal(record);
        if (refused != null) {
            LOG.warn("dead letter: {} at {}/{}/{}", refused, source.getTopic(), source.getPartition(),
                    source.getOffset());
            forwardDeadLetter(record.key(), letter(source, record.key(), record.value(), refused, "", at),
                    record.timestamp());
            return;
        }
        V value;
        try {
            value = decoder.deserialize(metadata.topic(), record.value());
        } catch (MalformedRecordException e) {
            LOG.warn("dead letter: {} at {}/{}/{}", e.getMessage(), source.getTopic(), source.getPartition(),
                    source.getOffset());
            forwardDeadLetter(record.key(), letter(source, record.key(), record.value(), e.getMessage(),
                    e.getClass().getName(), at), record.timestamp());
            return;
        }
        String unauthenticated = authenticator == null ? null : authenticator.refusal(record, value).orElse(null);
        if (unauthenticated != null) {
            LOG.warn("dead letter: {} at {}/{}/{}", unauthenticated, source.getTopic(), source.getPartition(),
                    source.getOffset());
            forwardDeadLetter(record.key(), letter(source, record.key(), record.value(), unauthenticated, "",
                    at), record.timestamp());
            return;
        }
        RouteOutcome outcome = route.route(key, value, source, at);
        for (CellInput input : outcome.toCells()) {
            context.forward(new Record<>(input.getCellId(), input, record.timestamp()), sinks.inbox());
        }
        if (outcome.status() != null) {
            context.forward(new Record<>(outcome.status().getJobId(), outcome.status(), record.timestamp()),
                    sinks.status());
        }
        if (outcome.deadLetterReason() != null) {
            LOG.info("dead letter: {} at {}/{}/{}", outcome.deadLetterReason(), source.getTopic(),
                    source.getPartition(), source.getOffset());
            forwardDeadLetter(record.key(), letter(source, record.key(), record.value(),
                    outcome.deadLetterReason(), "", at), record.timestamp());
        }
    }

    /** Why the record is refused before decoding, or null. */
    private String refusal(Record<byte[], byte[]> record) {
        if (record.key() != null && !isUtf8(record.key())) {
            return "record key is not UTF-8 text (" + record.key().length + " bytes): keys are job or node ids "
                    + "written as plain strings";
        }
        if (record.value() != null && record.value().length > limits.maxBytes()) {
            return "value of " + record.value().length + " bytes exceeds scheduler.input.max.bytes ("
                    + limits.maxBytes() + ")";
        }
        long ahead = record.timestamp() - context.currentSystemTimeMs();
        if (ahead > limits.maxSkewMs()) {
            return "timestamp " + Instant.ofEpochMilli(record.timestamp()) + " is " + ahead + " ms ahead of the "
                    + "scheduler's clock, more than scheduler.max.clock.skew.ms (" + limits.maxSkewMs() + "): the "
                    + "producer's clock is skewed (use LogAppendTime on the input topics)";
        }
        return null;
    }

    private static boolean isUtf8(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    /** The dead letter of this input's record: without a copy of the value when it may hold a job's secrets. */
    private DeadLetter letter(SourceRef source, byte[] key, byte[] value, String reason, String errorClass,
                              Instant at) {
        return route.carriesJobSecrets() ? DeadLetters.withoutValue(source, key, value, reason, errorClass, at)
                : DeadLetters.of(source, key, value, reason, errorClass, at);
    }

    private void forwardDeadLetter(byte[] key, Object letter, long timestamp) {
        context.forward(new Record<>(DeadLetters.recordKey(key), letter, timestamp), sinks.deadLetter());
    }
}
