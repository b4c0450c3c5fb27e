package io.quanta.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Checks every {@link KafkaStack} must pass, whatever it runs on. */
abstract class KafkaStackContract {

    static void assertBrokerCarriesRecords(KafkaStack stack) throws Exception {
        String topic = "contract-" + UUID.randomUUID();
        Map<String, Object> common = Map.of("bootstrap.servers", stack.bootstrapServers());
        try (Admin admin = Admin.create(common)) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        }
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(common, new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, "k", "hello")).get();
        }
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers",
                stack.bootstrapServers(), "group.id", "contract", "auto.offset.reset", "earliest"),
                new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            java.util.List<ConsumerRecord<String, String>> seen = new java.util.ArrayList<>();
            Await.until("record read back from " + topic, Duration.ofSeconds(30), () -> {
                consumer.poll(Duration.ofMillis(200)).forEach(seen::add);
                return !seen.isEmpty();
            });
            assertThat(seen.getFirst().key()).isEqualTo("k");
            assertThat(seen.getFirst().value()).isEqualTo("hello");
        }
    }

    static void assertRegistryIsBackwardCompatible(KafkaStack stack) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> subjects = http.send(HttpRequest.newBuilder(URI.create(stack.registryUrl()
                + "/subjects")).build(), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> config = http.send(HttpRequest.newBuilder(URI.create(stack.registryUrl()
                + "/config")).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(subjects.statusCode()).isEqualTo(200);
        assertThat(subjects.body()).startsWith("[");
        assertThat(config.statusCode()).isEqualTo(200);
        assertThat(config.body()).contains("BACKWARD");
    }
}
