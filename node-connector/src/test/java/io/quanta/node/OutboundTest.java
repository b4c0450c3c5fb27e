package io.quanta.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.schemas.NodeHeartbeat;
import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.auth.NodeMac;
import io.quanta.topics.auth.NodeSecret;
import io.quanta.topics.config.QuantaConfig;
import io.quanta.topics.registry.InMemorySchemaRegistryClient;
import io.quanta.topics.serde.AvroSerdeFactory;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

class OutboundTest {

    private final TopicCatalogue topics = TopicCatalogue.from(QuantaConfig.of(Map.of()),
            new AvroSerdeFactory(new InMemorySchemaRegistryClient(), true));
    private final NodeHeartbeat beat = NodeHeartbeat.newBuilder().setNodeId("n1").setCellId("cell-0").setRack("r")
            .setEpoch(5).setGpus(List.of()).setRunning(List.of()).setSentAt(Instant.parse("2026-01-01T00:00:00Z"))
            .build();

    @Test
    void shouldSignWhatItSendsWithTheNodeKeySoTheSchedulerCanVerifyIt() {
        byte[] key = NodeSecret.generate().keyOf("n1");
        Outbound<NodeHeartbeat> out = new Outbound<>(Outbound.Kind.HEARTBEAT, topics.heartbeats(), "n1", beat,
                beat.getSentAt());

        ProducerRecord<String, byte[]> record = out.toProducerRecord(key);

        byte[] mac = record.headers().lastHeader(NodeMac.HEADER).value();
        assertThat(NodeMac.verify(key, "heartbeats", "n1".getBytes(StandardCharsets.UTF_8), record.value(), mac))
                .isTrue();
        assertThat(out.toProducerRecord().headers().lastHeader(NodeMac.HEADER)).as("unsigned without a key").isNull();
    }

    @Test
    void shouldReadTheNodeKeyAsHexAndNeverPrintIt() {
        String hex = NodeMac.toHex(NodeSecret.generate().keyOf("n1"));
        NodeSettings settings = NodeSettings.from(QuantaConfig.of(Map.of("node.id", "n1", "node.auth.key", hex)));

        assertThat(settings.authKey()).get().extracting(NodeSettings.NodeKey::bytes)
                .isEqualTo(NodeMac.fromHex(hex));
        assertThat(settings.toString()).doesNotContain(hex);
    }
}
