package io.quanta.streams.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.core.model.GpuId;
import io.quanta.schemas.state.StoredAssignment;
import io.quanta.schemas.state.StoredJob;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.Test;

class StateFieldsTest {

    /** An assignment record with one field more than its schema. */
    record WithNewField(String jobId, int attempt, List<String> gpus, List<String> reserved,
                        List<String> startedNodes, long commandedAtMs, long addedButNotInTheSchema) {
    }

    @Test
    void shouldRefuseARecordFieldThatItsSchemaLacks() {
        assertThatThrownBy(() -> StateFields.ofRecord(WithNewField.class, StoredAssignment.getClassSchema(),
                StoredAssignment::new, Map.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("[addedButNotInTheSchema] are not in io.quanta.schemas.state.StoredAssignment");
    }

    @Test
    void shouldRefuseASchemaFieldThatTheRecordLacks() {
        Schema schema = SchemaBuilder.record("StoredAssignment").namespace("io.quanta.schemas.state").fields()
                .requiredString("jobId").requiredInt("attempt").requiredLong("onlyInTheSchema").endRecord();

        assertThatThrownBy(() -> StateFields.ofRecord(AssignmentRecord.class, schema, StoredAssignment::new,
                Map.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("onlyInTheSchema has no field in AssignmentRecord");
    }

    @Test
    void shouldCopyEveryComponentOfTheJobRecordByName() {
        StateFields<JobRecord, StoredJob> fields = StateFields.ofRecord(JobRecord.class,
                StoredJob.getClassSchema(), StoredJob::new, Map.of());
        JobRecord sample = StateSamples.job();

        StoredJob stored = fields.toStored(sample);

        assertThat(stored.getJobId()).isEqualTo(sample.jobId());
        assertThat(stored.getState()).isEqualTo("SUSPENDING");
        assertThat(StateSamples.differences(sample, fields.fromStored(stored))).isEmpty();
    }

    @Test
    void shouldCopyEveryComponentOfAJavaRecordByNameThroughItsConversions() {
        StateFields.Conversion names = new StateFields.Conversion(
                v -> ((List<?>) v).stream().map(Object::toString).toList(),
                v -> ((List<?>) v).stream().map(n -> GpuId.parse(n.toString())).toList());
        StateFields<AssignmentRecord, StoredAssignment> fields = StateFields.ofRecord(AssignmentRecord.class,
                StoredAssignment.getClassSchema(), StoredAssignment::new, Map.of("gpus", names, "reserved", names));
        AssignmentRecord sample = StateSamples.assignment();

        StoredAssignment stored = fields.toStored(sample);

        assertThat(stored.getJobId()).isEqualTo(sample.jobId());
        assertThat(stored.getReserved()).containsExactly("n2/3");
        assertThat(fields.fromStored(stored)).isEqualTo(sample);
    }
}
