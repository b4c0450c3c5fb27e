package io.quanta.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.node.runner.NodeWorkDir;
import io.quanta.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeEpochTest {

    @Test
    void shouldGrowOnEveryStartEvenWhenTheClockStandsStill(@TempDir Path dir) {
        NodeWorkDir workDir = new NodeWorkDir(dir);
        MutableClock clock = new MutableClock(Instant.ofEpochMilli(1_000));

        long first = NodeEpoch.next(workDir, clock);
        long second = NodeEpoch.next(workDir, clock);

        assertThat(first).isEqualTo(1_000);
        assertThat(second).isEqualTo(1_001);
    }

    @Test
    void shouldStillGrowWithTheClockWhenTheWorkDirectoryWasWiped(@TempDir Path dir) throws Exception {
        MutableClock clock = new MutableClock(Instant.ofEpochMilli(5_000));
        long before = NodeEpoch.next(new NodeWorkDir(dir.resolve("a")), clock);
        clock.set(Instant.ofEpochMilli(9_000));

        long after = NodeEpoch.next(new NodeWorkDir(dir.resolve("b")), clock);

        assertThat(after).isGreaterThan(before);
        assertThat(Files.readString(dir.resolve("b").resolve("epoch"))).isEqualTo("9000");
    }
}
