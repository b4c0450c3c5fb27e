package io.quanta.streams.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.schemas.state.StoredAssignment;
import io.quanta.schemas.state.StoredCellMeta;
import io.quanta.schemas.state.StoredJob;
import io.quanta.schemas.state.StoredNode;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.junit.jupiter.api.Test;

class StateSchemaHistoryTest {

    @Test
    void shouldFindEveryWrittenVersionOfEachStateSchemaOnTheClassPathWithTheCurrentOneLast() {
        for (Schema current : List.of(StoredJob.getClassSchema(), StoredNode.getClassSchema(),
                StoredAssignment.getClassSchema(), StoredCellMeta.getClassSchema())) {
            List<Schema> versions = StateSchemaHistory.versions(current.getName());

            assertThat(versions).as(current.getName()).isNotEmpty();
            assertThat(SchemaNormalization.parsingFingerprint64(versions.get(versions.size() - 1)))
                    .as("newest written version of %s", current.getName())
                    .isEqualTo(SchemaNormalization.parsingFingerprint64(current));
        }
    }

    @Test
    void shouldRefuseASchemaWithoutHistory() {
        assertThatThrownBy(() -> StateSchemaHistory.versions("StoredNothing"))
                .hasMessageContaining("no state schema history for StoredNothing");
    }
}
