package io.quanta.chaos.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** TCP ports free on the loopback interface right now (fixed ports let a process restart at the same address). */
public final class Ports {

    private Ports() {
    }

    /**
     * A free port below the kernel's ephemeral range, for a listener that may be closed for a while (a partitioned
     * proxy): a client connecting to a closed port inside the ephemeral range can, rarely, connect to itself (TCP
     * simultaneous open when its own source port is that port) and then believe it reached the server.
     */
    public static int freeStable() {
        int low = ephemeralLow();
        java.util.SplittableRandom random = new java.util.SplittableRandom();
        for (int i = 0; i < 100 && low > 11_000; i++) {
            int port = 10_000 + random.nextInt(low - 10_000);
            try (ServerSocket socket = new ServerSocket()) {
                socket.setReuseAddress(true);
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                return port;
            } catch (IOException taken) {
                // try another
            }
        }
        return free();
    }

    private static int ephemeralLow() {
        try {
            // readAllLines: Files.readString can return a /proc file cut short
            String range = java.nio.file.Files.readAllLines(java.nio.file.Path.of(
                    "/proc/sys/net/ipv4/ip_local_port_range")).get(0).strip();
            return Integer.parseInt(range.split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 32_768;
        }
    }

    /** A port nobody listens on at the moment of the call. */
    public static int free() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on loopback", e);
        }
    }
}
