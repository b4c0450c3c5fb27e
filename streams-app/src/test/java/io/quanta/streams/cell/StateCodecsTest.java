package io.quanta.streams.cell;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.core.model.JobState;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class StateCodecsTest {

    @Test
    void shouldRoundTripEveryJobFieldExactlyWhenEncodedAndDecoded() {
        JobRecord job = StateSamples.queuedJob().with(j -> {
            j.env = new TreeMap<>(Map.of("B", "2", "A", "1"));
            j.state = JobState.SUSPENDING;
            j.throughput = Double.NaN;
            j.lastMessage = "x".repeat(70_000);
        });

        byte[] bytes = StateCodecs.encodeJob(job);
        JobRecord back = StateCodecs.decodeJob(bytes);

        assertThat(StateCodecs.encodeJob(back)).isEqualTo(bytes);
        assertThat(back.jobId()).isEqualTo("j|1");
        assertThat(back.gpuType()).isNull();
        assertThat(back.env()).containsExactly(Map.entry("A", "1"), Map.entry("B", "2"));
        assertThat(back.throughput()).isNaN();
        assertThat(back.attainedBase()).isEqualTo(1234.5678901234);
        assertThat(back.lastMessage()).hasSize(70_000);
        assertThat(back.state()).isEqualTo(JobState.SUSPENDING);
    }

    @Test
    void shouldRoundTripNodesAssignmentsAndMeta() {
        NodeRecord node = new NodeRecord("n1", "cell-0", "r1", 7, true, 0, 0,
                List.of(new NodeRecord.GpuRecord(0, "V100", 16_384, false, "ECC error")));
        AssignmentRecord assignment = new AssignmentRecord("j1", 3, List.of(
                new io.quanta.core.model.GpuId("n1", 1), new io.quanta.core.model.GpuId("n1", 0)), 42);
        CellMeta meta = new CellMeta("cell-0").with(m -> {
            m.seq = 99;
            m.configHash = "abc";
            m.policyWakeUpMs = 123;
        });

        NodeRecord nodeBack = StateCodecs.decodeNode(StateCodecs.encodeNode(node));
        AssignmentRecord assignmentBack = StateCodecs.decodeAssignment(StateCodecs.encodeAssignment(assignment));
        CellMeta metaBack = StateCodecs.decodeMeta(StateCodecs.encodeMeta(meta));

        assertThat(nodeBack.gpus()).isEqualTo(node.gpus());
        assertThat(nodeBack.epoch()).isEqualTo(7);
        assertThat(assignmentBack.placement()).isEqualTo(assignment.placement());
        assertThat(assignmentBack.attempt()).isEqualTo(3);
        assertThat(metaBack.seq()).isEqualTo(99);
        assertThat(metaBack.configHash()).isEqualTo("abc");
        assertThat(metaBack.policyWakeUpMs()).isEqualTo(123);
    }

    @Test
    void shouldSayWhichRecordIsMalformedWhenAStoredValueIsRefused() throws java.io.IOException {
        io.quanta.schemas.state.StoredAssignment stored = new io.quanta.schemas.state.StoredAssignment(
                "j1", 1, List.of("no-gpu-name"), List.of(), List.of(), 5L);
        java.nio.ByteBuffer buffer = io.quanta.schemas.state.StoredAssignment.getEncoder().encode(stored);
        byte[] data = new byte[buffer.remaining()];
        buffer.get(data);

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> StateCodecs.decodeAssignment(data))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("malformed assignment record: ")
                .hasMessageContaining("no-gpu-name");
    }

    @Test
    void shouldReadAnAssignmentOfVersionOneWithoutItsCommandTime() throws java.io.IOException {
        byte[] v2 = ReleasedStateTest.released("0.1.0", "assignment.hex");
        byte[] assignmentV1 = java.util.Arrays.copyOf(v2, v2.length - Long.BYTES); // without commandedAtMs
        assignmentV1[0] = 1;

        AssignmentRecord assignment = StateCodecs.decodeAssignment(assignmentV1);

        assertThat(assignment.attempt()).isEqualTo(StateSamples.assignment().attempt());
        assertThat(assignment.startedNodes()).isEqualTo(StateSamples.assignment().startedNodes());
        assertThat(assignment.commandedAtMs()).isEqualTo(-1);
        assertThat(StateCodecs.decodeAssignment(StateCodecs.encodeAssignment(assignment)).commandedAtMs())
                .isEqualTo(-1);
    }

    @Test
    void shouldReadCellMetaOfVersionOneWithoutTheDroppedTelemetryCounter() throws java.io.IOException {
        byte[] v2 = ReleasedStateTest.released("0.1.0", "meta.hex");
        byte[] v1 = java.util.Arrays.copyOf(v2, v2.length - Long.BYTES);
        v1[0] = 1;

        CellMeta old = StateCodecs.decodeMeta(v1);

        assertThat(old.seq()).isEqualTo(StateSamples.meta().seq());
        assertThat(old.passes()).isEqualTo(StateSamples.meta().passes());
        assertThat(old.droppedTelemetry()).isZero();
        assertThat(StateCodecs.decodeMeta(v2).droppedTelemetry()).isEqualTo(StateSamples.meta().droppedTelemetry());
    }

    @Test
    void shouldWriteAvroSingleObjectEncodingAndRefuseBytesOfNoKnownSchema() {
        byte[] bytes = StateCodecs.encodeMeta(StateSamples.meta());
        assertThat(bytes[0]).isEqualTo((byte) 0xC3);
        assertThat(bytes[1]).isEqualTo((byte) 0x01);

        byte[] unknown = bytes.clone();
        unknown[2] ^= 0x5A; // another schema fingerprint

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> StateCodecs.decodeMeta(unknown))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("malformed cell meta");
    }

}
