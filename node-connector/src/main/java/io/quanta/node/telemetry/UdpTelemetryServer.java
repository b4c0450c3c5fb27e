package io.quanta.node.telemetry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Receives job progress reports on a UDP port of the loopback interface: each datagram holds one or more
 * newline-separated {@link TelemetryReport} JSON objects. Jobs find the endpoint in {@code QUANTA_TELEMETRY}
 * ({@code udp://127.0.0.1:<port>}). Valid reports go to the {@link TelemetryAggregator}; invalid lines are counted and
 * logged at most once per 100.
 */
public final class UdpTelemetryServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(UdpTelemetryServer.class);
    private static final int MAX_DATAGRAM = 65_507;

    private final DatagramChannel channel;
    private final TelemetryAggregator aggregator;
    private final Clock clock;
    private final Thread receiver;
    private final AtomicLong received = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();

    /**
     * Binds {@code 127.0.0.1:port} (0 = any free port) and starts receiving.
     *
     * @throws UncheckedIOException when the port cannot be bound
     */
    public UdpTelemetryServer(int port, TelemetryAggregator aggregator, Clock clock) {
        this.aggregator = aggregator;
        this.clock = clock;
        try {
            this.channel = DatagramChannel.open(StandardProtocolFamily.INET)
                    .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind the telemetry port 127.0.0.1:" + port, e);
        }
        this.receiver = new Thread(this::receive, "quanta-telemetry");
        this.receiver.setDaemon(true);
        this.receiver.start();
    }

    /** The value of {@code QUANTA_TELEMETRY}: {@code udp://127.0.0.1:<port>}. */
    public String endpoint() {
        return "udp://127.0.0.1:" + port();
    }

    /** The bound port. */
    public int port() {
        try {
            return ((InetSocketAddress) channel.getLocalAddress()).getPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Valid reports received so far. */
    public long received() {
        return received.get();
    }

    /** Invalid lines received so far. */
    public long rejected() {
        return rejected.get();
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            LOG.debug("closing the telemetry channel", e);
        }
        try {
            receiver.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void receive() {
        ByteBuffer buffer = ByteBuffer.allocate(MAX_DATAGRAM);
        while (channel.isOpen()) {
            try {
                buffer.clear();
                channel.receive(buffer);
                buffer.flip();
                String text = StandardCharsets.UTF_8.decode(buffer).toString();
                for (String line : text.split("\\R")) {
                    if (!line.isBlank()) {
                        accept(line);
                    }
                }
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                LOG.warn("telemetry receive failed: {}", e.getMessage());
            }
        }
    }

    private void accept(String line) {
        try {
            aggregator.record(TelemetryReport.parse(line), clock.instant());
            received.incrementAndGet();
        } catch (IllegalArgumentException e) {
            if (rejected.getAndIncrement() % 100 == 0) {
                LOG.warn("invalid telemetry line ({} so far): {}: {}", rejected.get(), e.getMessage(),
                        line.length() > 200 ? line.substring(0, 200) + "..." : line);
            }
        }
    }
}
