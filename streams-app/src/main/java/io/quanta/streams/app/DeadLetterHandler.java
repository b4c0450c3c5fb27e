package io.quanta.streams.app;

import io.quanta.schemas.DeadLetter;
import io.quanta.schemas.SourceRef;
import io.quanta.streams.deadletter.DeadLetters;
import io.quanta.streams.deadletter.JobSecretTopics;
import io.quanta.topics.TopicSpec;
import io.quanta.topics.serde.RegistryUnavailableException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka Streams' processing, production and deserialization exception handler of the scheduler: a record that makes
 * a processor throw, that cannot be deserialized, or whose output cannot be serialized or is refused as too large,
 * goes to the dead-letter topic with the reason, the source topic/partition/offset and a bounded copy of its raw key
 * and value (no value for the topics that may carry a job's secrets, {@link JobSecretTopics}), and the stream moves on ({@code RESUME}). The dead-letter records are returned to Kafka Streams (KIP-1034),
 * which writes them in the same transaction as the input's offset, so exactly-once holds for them too.
 *
 * <p>Why our own handler rather than Kafka's {@code LogAndContinue...} handlers with
 * {@code errors.dead.letter.queue.topic.name}: those write raw bytes with the reason in headers, while every other
 * dead letter of Quanta (malformed input found by the routers, invalid submissions, inputs the cells cannot use) is an
 * Avro {@code DeadLetter} on {@code quanta.deadletter}; users and {@code quanta} tools read one format.
 *
 * <p>Not every failure is the record's fault: when the schema registry cannot be reached
 * ({@link RegistryUnavailableException}) the handler answers {@code FAIL}, the stream thread is replaced and reads the
 * record again, so good records are never dead-lettered during a registry outage. Retriable send errors are retried.
 *
 * <p>Configured by {@link SchedulerStreamsConfig#errorHandling}; the dead-letter topic spec travels in the Streams
 * properties under {@link #TOPIC_CONFIG}.
 */
public final class DeadLetterHandler implements ProcessingExceptionHandler, ProductionExceptionHandler,
        DeserializationExceptionHandler {

    /** Streams property holding the dead-letter {@link TopicSpec} (an object, not a string). */
    public static final String TOPIC_CONFIG = "quanta.deadletter.topic.spec";
    /**
     * Streams property holding the {@link JobSecretTopics} (an object): source records of those topics are
     * dead-lettered without a copy of their value. Absent: every value is copied.
     */
    public static final String SECRET_TOPICS_CONFIG = "quanta.deadletter.secret.topics";

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterHandler.class);

    private TopicSpec<String, DeadLetter> topic;
    private JobSecretTopics secretTopics;

    @Override
    @SuppressWarnings("unchecked")
    public void configure(Map<String, ?> configs) {
        Object spec = configs.get(TOPIC_CONFIG);
        if (!(spec instanceof TopicSpec<?, ?>)) {
            throw new ConfigException(TOPIC_CONFIG, spec, "the dead-letter topic spec is missing; configure Kafka "
                    + "Streams with SchedulerStreamsConfig.errorHandling");
        }
        topic = (TopicSpec<String, DeadLetter>) spec;
        secretTopics = configs.get(SECRET_TOPICS_CONFIG) instanceof JobSecretTopics t ? t : null;
    }

    @Override
    public ProcessingExceptionHandler.Response handleError(ErrorHandlerContext context, Record<?, ?> record,
                                                           Exception exception) {
        if (RegistryUnavailableException.isCause(exception)) {
            LOG.warn("schema registry unavailable while processing {}/{}/{}; the stream thread restarts and retries: "
                    + "{}", context.topic(), context.partition(), context.offset(), exception.getMessage());
            return ProcessingExceptionHandler.Response.fail();
        }
        List<ProducerRecord<byte[], byte[]>> letters = letters(context,
                "processing failed in " + context.processorNodeId() + ": " + describe(exception), exception);
        return letters == null ? ProcessingExceptionHandler.Response.fail()
                : ProcessingExceptionHandler.Response.resume(letters);
    }

    @Override
    public DeserializationExceptionHandler.Response handleError(ErrorHandlerContext context,
                                                                ConsumerRecord<byte[], byte[]> record,
                                                                Exception exception) {
        if (RegistryUnavailableException.isCause(exception)) {
            return DeserializationExceptionHandler.Response.fail();
        }
        List<ProducerRecord<byte[], byte[]>> letters = letters(context,
                "cannot deserialize: " + describe(exception), exception);
        return letters == null ? DeserializationExceptionHandler.Response.fail()
                : DeserializationExceptionHandler.Response.resume(letters);
    }

    @Override
    public ProductionExceptionHandler.Response handleError(ErrorHandlerContext context,
                                                           ProducerRecord<byte[], byte[]> record,
                                                           Exception exception) {
        if (exception instanceof RetriableException) {
            return ProductionExceptionHandler.Response.retry();
        }
        if (exception instanceof RecordTooLargeException || exception instanceof InvalidRecordException) {
            List<ProducerRecord<byte[], byte[]>> letters = letters(context, "output to " + record.topic()
                    + " refused by Kafka: " + describe(exception), exception);
            if (letters != null && !record.topic().equals(topic.name())) {
                return ProductionExceptionHandler.Response.resume(letters);
            }
        }
        return ProductionExceptionHandler.Response.fail();
    }

    @Override
    @SuppressWarnings("rawtypes")
    public ProductionExceptionHandler.Response handleSerializationError(ErrorHandlerContext context,
            ProducerRecord record, Exception exception, SerializationExceptionOrigin origin) {
        if (RegistryUnavailableException.isCause(exception)) {
            LOG.warn("schema registry unavailable while writing to {}; the stream thread restarts and retries: {}",
                    record.topic(), exception.getMessage());
            return ProductionExceptionHandler.Response.fail();
        }
        List<ProducerRecord<byte[], byte[]>> letters = letters(context, "cannot serialize the " + origin
                + " of an output to " + record.topic() + ": " + describe(exception), exception);
        return letters == null || record.topic().equals(topic.name()) ? ProductionExceptionHandler.Response.fail()
                : ProductionExceptionHandler.Response.resume(letters);
    }

    /** The dead letter of the source record, or null when it cannot be written (registry unavailable). */
    private List<ProducerRecord<byte[], byte[]>> letters(ErrorHandlerContext context, String reason,
                                                         Exception exception) {
        Objects.requireNonNull(topic, "not configured");
        LOG.warn("dead letter: {} at {}/{}/{}", reason, context.topic(), context.partition(), context.offset());
        SourceRef source = context.topic() == null ? null
                : new SourceRef(context.topic(), context.partition(), context.offset());
        Instant at = Instant.ofEpochMilli(Math.max(0, context.timestamp()));
        DeadLetter letter = secretTopics != null && secretTopics.contains(context.topic())
                ? DeadLetters.withoutValue(source, context.sourceRawKey(), context.sourceRawValue(), reason,
                        exception.getClass().getName(), at)
                : DeadLetters.of(source, context.sourceRawKey(), context.sourceRawValue(), reason,
                        exception.getClass().getName(), at);
        String key = DeadLetters.recordKey(context.sourceRawKey());
        try {
            byte[] value = topic.valueSerde().serializer().serialize(topic.name(), letter);
            byte[] keyBytes = key == null ? null : topic.keySerde().serializer().serialize(topic.name(), key);
            return List.of(new ProducerRecord<>(topic.name(), null, keyBytes, value));
        } catch (KafkaException e) {
            LOG.warn("cannot write the dead letter of {}/{}/{}: {}", context.topic(), context.partition(),
                    context.offset(), e.getMessage());
            return null;
        }
    }

    private static String describe(Throwable exception) {
        String message = exception.getMessage();
        return exception.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
}
