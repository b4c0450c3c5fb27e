package io.quanta.cli.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataDirTest {

    @Test
    void shouldRefuseSecondOwnerNamingFirstWhenDirectoryIsLocked(@TempDir Path root) {
        try (DataDir first = DataDir.open(root)) {
            assertThat(first.root()).isEqualTo(root.toAbsolutePath().normalize());
            assertThatThrownBy(() -> DataDir.open(root)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("another quanta local (pid " + ProcessHandle.current().pid() + ")")
                    .hasMessageContaining("--data-dir");
        }
        try (DataDir again = DataDir.open(root)) {
            assertThat(again.hasState()).isFalse();
        }
    }

    @Test
    void shouldResumeSameUnfinishedWorkloadAndNumberNewRunOtherwise(@TempDir Path root) {
        Path trace = root.resolve("t.csv").toAbsolutePath();
        try (DataDir dir = DataDir.open(root)) {
            WorkloadState first = WorkloadState.next(WorkloadState.load(dir), trace, 10, 600);
            first.progressed(4, 1234.5, false).save(dir);

            WorkloadState resumed = WorkloadState.next(WorkloadState.load(dir), trace, 10, 600);
            WorkloadState otherSpeed = WorkloadState.next(WorkloadState.load(dir), trace, 10, 60);

            assertThat(first.run()).isEqualTo(1);
            assertThat(resumed.resumed()).isTrue();
            assertThat(resumed.submitted()).isEqualTo(4);
            assertThat(resumed.simulatedSeconds()).isEqualTo(1234.5);
            assertThat(resumed.idPrefix()).isEqualTo("w1-");
            assertThat(otherSpeed.run()).isEqualTo(2);
            assertThat(otherSpeed.submitted()).isZero();
        }
    }

    @Test
    void shouldRoundTripPropertiesWhenWrittenAndRead(@TempDir Path root) {
        try (DataDir dir = DataDir.open(root)) {
            dir.write("x.properties", Map.of("a", "1", "b", "two"), "test");

            assertThat(dir.read("x.properties")).containsEntry("a", "1").containsEntry("b", "two");
            assertThat(dir.read("missing.properties")).isEmpty();
            assertThat(DataDir.ownerPid(root)).isEqualTo(Optional.of(ProcessHandle.current().pid()));
        }
    }
}
