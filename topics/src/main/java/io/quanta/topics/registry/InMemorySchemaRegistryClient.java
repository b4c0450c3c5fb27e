package io.quanta.topics.registry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;

/**
 * A {@link SchemaRegistryClient} held in memory, for fast unit tests. Like a registry at compatibility level BACKWARD:
 * a new version must be able to read data written with the latest one, otherwise registration fails with HTTP 409.
 * Ids are global; the same schema under two subjects gets one id. Thread-safe.
 */
public final class InMemorySchemaRegistryClient implements SchemaRegistryClient {

    private final Map<String, List<RegisteredSchema>> subjects = new HashMap<>();
    private final Map<Schema, Integer> ids = new HashMap<>();
    private final Map<Integer, Schema> schemas = new HashMap<>();

    @Override
    public synchronized int register(String subject, Schema schema) {
        List<RegisteredSchema> versions = subjects.computeIfAbsent(subject, s -> new ArrayList<>());
        for (RegisteredSchema version : versions) {
            if (version.schema().equals(schema)) {
                return version.id();
            }
        }
        if (!versions.isEmpty() && !backwardCompatible(schema, versions.getLast().schema())) {
            throw new SchemaRegistryException("register schema", subject, 409, 409,
                    "Schema being registered is incompatible with an earlier schema (BACKWARD): "
                            + incompatibilities(schema, versions.getLast().schema()), null);
        }
        int id = ids.computeIfAbsent(schema, s -> ids.size() + 1);
        schemas.put(id, schema);
        versions.add(new RegisteredSchema(subject, id, versions.size() + 1, schema));
        return id;
    }

    @Override
    public synchronized int idOf(String subject, Schema schema) {
        return subjects.getOrDefault(subject, List.of()).stream().filter(v -> v.schema().equals(schema))
                .mapToInt(RegisteredSchema::id).findFirst()
                .orElseThrow(() -> notFound("look up schema", subject, 40403, "Schema not found"));
    }

    @Override
    public synchronized Schema schemaById(int id) {
        Schema schema = schemas.get(id);
        if (schema == null) {
            throw notFound("fetch schema id " + id, null, 40403, "Schema " + id + " not found");
        }
        return schema;
    }

    @Override
    public synchronized RegisteredSchema latest(String subject) {
        List<RegisteredSchema> versions = subjects.get(subject);
        if (versions == null || versions.isEmpty()) {
            throw notFound("fetch latest version", subject, 40401, "Subject '" + subject + "' not found");
        }
        return versions.getLast();
    }

    @Override
    public synchronized boolean isCompatible(String subject, Schema schema) {
        List<RegisteredSchema> versions = subjects.get(subject);
        return versions == null || versions.isEmpty() || backwardCompatible(schema, versions.getLast().schema());
    }

    /** Forgets every subject and schema. */
    public synchronized void clear() {
        subjects.clear();
        ids.clear();
        schemas.clear();
    }

    private static boolean backwardCompatible(Schema reader, Schema writer) {
        return SchemaCompatibility.checkReaderWriterCompatibility(reader, writer).getType()
                == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE;
    }

    private static String incompatibilities(Schema reader, Schema writer) {
        return SchemaCompatibility.checkReaderWriterCompatibility(reader, writer).getResult().getIncompatibilities()
                .stream().map(i -> i.getType() + " at " + i.getLocation() + ": " + i.getMessage()).toList().toString();
    }

    private static SchemaRegistryException notFound(String operation, String subject, int code, String message) {
        return new SchemaRegistryException(operation, subject, 404, code, message, null);
    }
}
