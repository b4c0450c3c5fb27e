package io.quanta.node.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.embedded.Await;
import io.quanta.node.runner.AttemptId;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class UdpTelemetryServerTest {

    private static void send(int port, String text) throws IOException {
        try (DatagramSocket socket = new DatagramSocket()) {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            socket.send(new DatagramPacket(bytes, bytes.length, InetAddress.getLoopbackAddress(), port));
        }
    }

    @Test
    void shouldAggregateNewlineDelimitedReportsAndCountInvalidLines() throws IOException {
        Clock clock = Clock.systemUTC();
        TelemetryAggregator aggregator = new TelemetryAggregator("n1", clock.instant());
        try (UdpTelemetryServer server = new UdpTelemetryServer(0, aggregator, clock)) {
            assertThat(server.endpoint()).isEqualTo("udp://127.0.0.1:" + server.port());

            send(server.port(), "{\"job\":\"j1\",\"attempt\":1,\"minibatches\":2}\n"
                    + "{\"job\":\"j1\",\"attempt\":1,\"minibatches\":3}\n");
            send(server.port(), "garbage\n");
            send(server.port(), "{\"job\":\"j2\",\"attempt\":1,\"minibatches\":1}");

            Await.until("three reports and one bad line", Duration.ofSeconds(10),
                    () -> server.received() == 3 && server.rejected() == 1);
        }

        assertThat(aggregator.totalOf(new AttemptId("j1", 1))).hasValue(5);
        assertThat(aggregator.totalOf(new AttemptId("j2", 1))).hasValue(1);
    }
}
