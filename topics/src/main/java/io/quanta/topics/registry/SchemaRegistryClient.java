package io.quanta.topics.registry;

import org.apache.avro.Schema;

/**
 * The subset of the Confluent schema-registry REST API that Quanta uses. Implementations cache ids and schemas, so
 * repeated calls for the same subject and schema are cheap. Failures raise {@link SchemaRegistryException}.
 */
public interface SchemaRegistryClient {

    /** Registers the schema under the subject (or finds it, if already there) and returns its global id. */
    int register(String subject, Schema schema);

    /** The id of a schema already registered under the subject; fails with a not-found error otherwise. */
    int idOf(String subject, Schema schema);

    /** The schema with this global id. */
    Schema schemaById(int id);

    /** The latest version registered under the subject. */
    RegisteredSchema latest(String subject);

    /**
     * Whether the schema may be registered under the subject according to the registry's compatibility level
     * (true when the subject has no version yet).
     */
    boolean isCompatible(String subject, Schema schema);
}
