package io.quanta.topics.registry;

import java.util.Objects;
import org.apache.avro.Schema;

/** One version of a schema under a subject, with its global id. */
public record RegisteredSchema(String subject, int id, int version, Schema schema) {
    public RegisteredSchema {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(schema, "schema");
    }
}
