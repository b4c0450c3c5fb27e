package io.quanta.chaos.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import org.junit.jupiter.api.Test;

class TcpProxyTest {

    /** An echo server on loopback: what the proxy forwards to. */
    private static ServerSocket echo() throws IOException {
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    Thread.ofVirtual().start(() -> {
                        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                            in.transferTo(out);
                        } catch (IOException e) {
                            // client gone
                        }
                    });
                } catch (IOException e) {
                    return;
                }
            }
        });
        return server;
    }

    private static String roundTrip(Socket socket, String text) throws IOException {
        socket.setSoTimeout(5_000);
        socket.getOutputStream().write(text.getBytes());
        byte[] buffer = new byte[text.length()];
        int read = 0;
        while (read < buffer.length) {
            int n = socket.getInputStream().read(buffer, read, buffer.length - read);
            if (n < 0) {
                throw new IOException("closed after " + read + " bytes");
            }
            read += n;
        }
        return new String(buffer);
    }

    private static Socket connect(int port) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2_000);
        return s;
    }

    @Test
    void shouldForwardThenDropAndRefuseThenForwardAgainWhenPartitionedAndHealed() throws IOException {
        try (ServerSocket target = echo(); TcpProxy proxy = new TcpProxy(Ports.freeStable(), target.getLocalPort())) {
            proxy.start();
            Socket before = connect(proxy.port());
            assertThat(roundTrip(before, "hello")).isEqualTo("hello");

            proxy.partition();

            assertThat(proxy.isPartitioned()).isTrue();
            assertThatThrownBy(() -> roundTrip(before, "lost")).isInstanceOf(IOException.class);
            assertThatThrownBy(() -> connect(proxy.port())).isInstanceOf(IOException.class);

            proxy.heal();

            try (Socket after = connect(proxy.port())) {
                assertThat(roundTrip(after, "again")).isEqualTo("again");
            }
            assertThat(proxy.acceptedConnections()).isEqualTo(2);
            before.close();
        }
    }
}
