package io.quanta.schemas;

import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaPairCompatibility;

/**
 * BACKWARD check of a schema set against a released one: every released top-level type must still exist, and its
 * current version must read data written with the released version.
 */
final class BackwardCompatibility {

    private BackwardCompatibility() {
    }

    /** Human-readable problems; empty when compatible. */
    static List<String> problems(SchemaSet released, SchemaSet current) {
        List<String> problems = new ArrayList<>();
        released.byFullName().forEach((name, writer) -> {
            Schema reader = current.byFullName().get(name);
            if (reader == null) {
                problems.add(name + ": removed (released types must stay)");
                return;
            }
            SchemaPairCompatibility result = SchemaCompatibility.checkReaderWriterCompatibility(reader, writer);
            if (result.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
                result.getResult().getIncompatibilities().forEach(i -> problems.add(name + ": " + i.getType()
                        + " at " + i.getLocation() + ": " + i.getMessage()));
            }
        });
        return problems;
    }
}
