package io.quanta.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Finds TCP ports that are free on the loopback interface right now, for servers started a little later.
 *
 * <p>A port is drawn below the kernel's ephemeral range ({@code /proc/sys/net/ipv4/ip_local_port_range}, 32768 to
 * 60999 by default): the kernel gives client connections their local port from that range, so a free port found
 * there by binding port 0 can be taken by any outgoing connection (a Kafka client's, say) before the server binds it,
 * and the start fails with "Address already in use" (seen in CI: the metrics port of {@code quanta local}); and a
 * client connecting to a closed port inside the range can, rarely, connect to itself (TCP simultaneous open). Below
 * the range only another listener can take it, and the probe sees those. Where the range leaves too little room below
 * it, port 0 is used as before.
 */
public final class FreePorts {

    /** The lowest port drawn: above the registered ports most services use. */
    static final int LOWEST = 10_000;
    private static final int DEFAULT_EPHEMERAL_START = 32_768;
    private static final int ATTEMPTS = 200;

    private FreePorts() {
    }

    /** A free loopback port, below the ephemeral range. */
    public static int next() {
        return next(Set.of());
    }

    /** A free loopback port below the ephemeral range that is none of {@code taken} (chosen, not yet bound). */
    public static int next(Set<Integer> taken) {
        int highest = ephemeralStart(Path.of("/proc/sys/net/ipv4/ip_local_port_range")) - 1;
        if (highest - LOWEST >= 1_000) {
            for (int i = 0; i < ATTEMPTS; i++) {
                int port = ThreadLocalRandom.current().nextInt(LOWEST, highest + 1);
                if (!taken.contains(port) && bindable(port)) {
                    return port;
                }
            }
        }
        while (true) {
            int port = bind(0);
            if (!taken.contains(port)) {
                return port;
            }
        }
    }

    /** The first port of the ephemeral range that {@code rangeFile} gives ("32768 60999"), else Linux's default. */
    static int ephemeralStart(Path rangeFile) {
        try {
            // readAllLines: Files.readString can return a /proc file cut short
            String[] bounds = Files.readAllLines(rangeFile).get(0).strip().split("\\s+");
            return Integer.parseInt(bounds[0]);
        } catch (IOException | RuntimeException e) {
            return DEFAULT_EPHEMERAL_START; // not Linux, or no /proc: the usual start of the range
        }
    }

    private static boolean bindable(int port) {
        try {
            bind(port);
            return true;
        } catch (UncheckedIOException e) {
            return false;
        }
    }

    private static int bind(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("port " + port + " is not free on loopback", e);
        }
    }
}
