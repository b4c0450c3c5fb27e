package io.quanta.tests;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A producer that knows nothing of Quanta's code, as a client in another language would be: it looks the value
 * schema of a topic up by subject in the registry's Confluent API (never registering one), builds the record from
 * that schema alone and writes the Confluent wire format (magic byte 0, 4-byte schema id, Avro binary) with plain
 * byte serializers. On a fresh cluster this works only if {@code quanta topics apply} registered the schemas.
 */
final class ForeignProducer {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ForeignProducer() {
    }

    /** Writes a JobRequest{JobSubmitted} for {@code jobId} to {@code topic}; fails if the registry lacks its schema. */
    static void submit(String bootstrap, String registryUrl, String topic, String jobId, int gpus, String tenant)
            throws IOException, InterruptedException, java.util.concurrent.ExecutionException,
            java.util.concurrent.TimeoutException {
        HttpResponse<String> latest = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(registryUrl + "/subjects/" + topic + "-value/versions/latest")).build(),
                HttpResponse.BodyHandlers.ofString());
        if (latest.statusCode() != 200) {
            throw new AssertionError("the registry has no schema for " + topic + "-value (HTTP "
                    + latest.statusCode() + "): " + latest.body());
        }
        JsonNode registered = JSON.readTree(latest.body());
        Schema request = new Schema.Parser().parse(registered.get("schema").asText());
        Schema submitted = request.getField("request").schema().getTypes().stream()
                .filter(s -> s.getName().equals("JobSubmitted")).findFirst().orElseThrow();
        Schema profile = submitted.getField("profile").schema();
        GenericRecord job = new GenericRecordBuilder(submitted)
                .set("jobId", jobId)
                .set("tenant", tenant)
                .set("numGpus", gpus)
                .set("command", List.of())
                .set("env", Map.of())
                .set("profile", new GenericRecordBuilder(profile).set("modelName", "resnet50").build())
                .set("expectedDurationSeconds", 60L)
                .set("submittedAt", Instant.now().toEpochMilli())
                .build();
        GenericData.Record value = new GenericData.Record(request);
        value.put("request", job);

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.write(0);
        bytes.write(ByteBuffer.allocate(4).putInt(registered.get("id").asInt()).array());
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
        new GenericDatumWriter<GenericRecord>(request).write(value, encoder);
        encoder.flush();

        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName()))) {
            producer.send(new ProducerRecord<>(topic, jobId, bytes.toByteArray())).get(30, TimeUnit.SECONDS);
        }
    }
}
