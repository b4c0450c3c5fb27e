package io.quanta.streams.router;

import io.quanta.schemas.CellInput;
import io.quanta.schemas.SourceRef;
import io.quanta.streams.DeadLetters;
import io.quanta.topics.serde.MalformedRecordException;
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
 * A router of sub-topology 1 (thin): reads raw bytes, decodes them with the topic's Avro serde (undecodable bytes go
 * to the dead letters with the raw bytes and the reason instead of stopping the app), lets its {@link InputRoute}
 * validate and route the record, and forwards the results: cell inputs to the inbox (keyed by cell), REJECTED
 * statuses, dead letters. Nothing is dropped silently.
 *
 * @param <V> the decoded value type
 */
public final class InputRouterProcessor<V> implements Processor<byte[], byte[], String, Object> {

    private static final Logger LOG = LoggerFactory.getLogger(InputRouterProcessor.class);

    /** The sinks a router writes to. */
    public record Sinks(String inbox, String status, String deadLetter) {
    }

    private final Deserializer<V> decoder;
    private final InputRoute<V> route;
    private final Sinks sinks;
    private ProcessorContext<String, Object> context;

    public InputRouterProcessor(Deserializer<V> decoder, InputRoute<V> route, Sinks sinks) {
        this.decoder = decoder;
        this.route = route;
        this.sinks = sinks;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        route.init(context::getStateStore);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        RecordMetadata metadata = context.recordMetadata().orElseThrow();
        SourceRef source = new SourceRef(metadata.topic(), metadata.partition(), metadata.offset());
        String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
        Instant at = Instant.ofEpochMilli(record.timestamp());
        V value;
        try {
            value = decoder.deserialize(metadata.topic(), record.value());
        } catch (MalformedRecordException e) {
            LOG.warn("dead letter: {} at {}/{}/{}", e.getMessage(), source.getTopic(), source.getPartition(),
                    source.getOffset());
            forwardDeadLetter(key, DeadLetters.of(source, record.key(), record.value(), e.getMessage(),
                    e.getClass().getName(), at), record.timestamp());
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
            forwardDeadLetter(key, DeadLetters.of(source, record.key(), record.value(), outcome.deadLetterReason(),
                    "", at), record.timestamp());
        }
    }

    private void forwardDeadLetter(String key, Object letter, long timestamp) {
        context.forward(new Record<>(key, letter, timestamp), sinks.deadLetter());
    }
}
