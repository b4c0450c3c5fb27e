package io.quanta.streams.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.schemas.state.StoredAssignment;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.Test;

class StateFieldsTest {

    /** An assignment record with one field more than its schema. */
    static final class WithNewField {
        String jobId;
        int attempt;
        List<String> gpus;
        List<String> reserved;
        List<String> startedNodes;
        long commandedAtMs;
        long addedButNotInTheSchema;
    }

    @Test
    void shouldRefuseARecordFieldThatItsSchemaLacks() {
        assertThatThrownBy(() -> new StateFields<>(WithNewField.class, WithNewField::new,
                StoredAssignment.getClassSchema(), StoredAssignment::new, Map.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("[addedButNotInTheSchema] are not in io.quanta.schemas.state.StoredAssignment");
    }

    @Test
    void shouldRefuseASchemaFieldThatTheRecordLacks() {
        Schema schema = SchemaBuilder.record("StoredAssignment").namespace("io.quanta.schemas.state").fields()
                .requiredString("jobId").requiredInt("attempt").requiredLong("onlyInTheSchema").endRecord();

        assertThatThrownBy(() -> new StateFields<>(AssignmentRecord.class, AssignmentRecord::new, schema,
                StoredAssignment::new, Map.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("onlyInTheSchema has no field in AssignmentRecord");
    }

    @Test
    void shouldCopyEveryFieldByName() {
        StateFields<AssignmentRecord, StoredAssignment> fields = new StateFields<>(AssignmentRecord.class,
                AssignmentRecord::new, StoredAssignment.getClassSchema(), StoredAssignment::new, Map.of());
        AssignmentRecord sample = StateSamples.assignment();

        StoredAssignment stored = fields.toStored(sample);

        assertThat(stored.getJobId()).isEqualTo(sample.jobId);
        assertThat(stored.getReserved()).isEqualTo(sample.reserved);
        assertThat(StateSamples.differences(sample, fields.fromStored(stored))).isEmpty();
    }
}
