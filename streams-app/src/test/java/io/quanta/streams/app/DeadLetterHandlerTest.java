package io.quanta.streams.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.schemas.DeadLetter;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.config.QuantaConfig;
import io.quanta.topics.registry.InMemorySchemaRegistryClient;
import io.quanta.topics.serde.AvroSerdeFactory;
import io.quanta.topics.serde.MalformedRecordException;
import io.quanta.topics.serde.RegistryUnavailableException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;

/**
 * The deserialization side of {@link DeadLetterHandler} (a source with an Avro deserializer: the node admissions'
 * global store): a record that cannot be read is dead-lettered and the stream goes on, but a registry that does not
 * answer fails the thread, which is replaced and reads the record again; the record is never dead-lettered for it.
 */
class DeadLetterHandlerTest {

    private final TopicCatalogue topics = TopicCatalogue.from(QuantaConfig.of(Map.of()),
            new AvroSerdeFactory(new InMemorySchemaRegistryClient(), true));
    private final DeadLetterHandler handler = new DeadLetterHandler();
    private final byte[] value = {0, 0, 0, 0, 7, 2, 'x'};
    private final ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>(topics.admissions().name(), 0, 42,
            "n1".getBytes(StandardCharsets.UTF_8), value);

    DeadLetterHandlerTest() {
        handler.configure(SchedulerStreamsConfig.errorHandling(topics));
    }

    @Test
    void shouldFailWithoutADeadLetterWhenTheRegistryDoesNotAnswer() {
        DeserializationExceptionHandler.Response response = handler.handleError(context(), record,
                new RegistryUnavailableException("Cannot fetch schema id 7 for topic 'quanta.nodes.admissions': "
                        + "HTTP 503", null));

        assertThat(response.result()).isEqualTo(DeserializationExceptionHandler.Result.FAIL);
        assertThat(response.deadLetterQueueRecords()).isEmpty();
    }

    @Test
    void shouldResumeWithADeadLetterNamingTheSourceWhenTheRecordCannotBeRead() {
        DeserializationExceptionHandler.Response response = handler.handleError(context(), record,
                new MalformedRecordException(MalformedRecordException.Reason.UNKNOWN_SCHEMA_ID,
                        topics.admissions().name(), "id 7", null));

        assertThat(response.result()).isEqualTo(DeserializationExceptionHandler.Result.RESUME);
        assertThat(response.deadLetterQueueRecords()).singleElement().satisfies(r -> {
            assertThat(r.topic()).isEqualTo(topics.deadLetter().name());
            DeadLetter letter = topics.deadLetter().valueSerde().deserializer().deserialize(r.topic(), r.value());
            assertThat(letter.getReason()).startsWith("cannot deserialize: MalformedRecordException");
            assertThat(letter.getSourceTopic()).isEqualTo(topics.admissions().name());
            assertThat(letter.getOffset()).isEqualTo(42);
        });
    }

    private ErrorHandlerContext context() {
        return new Context(record.topic(), record.partition(), record.offset(), new RecordHeaders(),
                "admissions-source", new TaskId(0, 0), 1_000, record.key(), record.value());
    }

    /** What Kafka Streams tells the handler about the failed record. */
    private record Context(String topic, int partition, long offset, Headers headers, String processorNodeId,
                           TaskId taskId, long timestamp, byte[] sourceRawKey, byte[] sourceRawValue)
            implements ErrorHandlerContext {
    }
}
