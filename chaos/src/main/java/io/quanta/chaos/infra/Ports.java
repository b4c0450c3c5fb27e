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
