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
        return io.quanta.embedded.FreePorts.next();
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
