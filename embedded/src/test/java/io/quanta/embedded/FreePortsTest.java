package io.quanta.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FreePortsTest {

    @Test
    void shouldChooseBindablePortsBelowTheEphemeralRangeThatAreNotTaken() throws IOException {
        int ephemeralStart = FreePorts.ephemeralStart(Path.of("/proc/sys/net/ipv4/ip_local_port_range"));
        Set<Integer> chosen = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            int port = FreePorts.next(chosen);
            assertThat(chosen).as("a port already chosen is not chosen again").doesNotContain(port);
            chosen.add(port);
            if (ephemeralStart - FreePorts.LOWEST > 1_000) {
                assertThat(port).as("outside the range client connections take their local port from")
                        .isBetween(FreePorts.LOWEST, ephemeralStart - 1);
            }
            try (ServerSocket server = new ServerSocket()) {
                server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                assertThat(server.getLocalPort()).isEqualTo(port);
            }
        }
    }

    @Test
    void shouldReadTheRangeStartAndFallBackToLinuxDefaultWhenItCannot(@TempDir Path dir) throws IOException {
        Path range = Files.writeString(dir.resolve("ip_local_port_range"), "40000\t60999\n");

        assertThat(FreePorts.ephemeralStart(range)).isEqualTo(40_000);
        assertThat(FreePorts.ephemeralStart(dir.resolve("missing"))).isEqualTo(32_768);
        assertThat(FreePorts.ephemeralStart(Files.writeString(dir.resolve("garbage"), "x y"))).isEqualTo(32_768);
    }
}
