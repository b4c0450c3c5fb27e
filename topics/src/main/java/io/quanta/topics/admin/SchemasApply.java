package io.quanta.topics.admin;

import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.registry.RegisteredSchema;
import io.quanta.topics.registry.SchemaRegistryClient;
import io.quanta.topics.registry.SchemaRegistryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * Registers the value schema of every Quanta topic, so that a producer that does not register schemas (Confluent's
 * clients with {@code auto.register.schemas=false}, a Python or Go producer that looks the id up) can write to a
 * fresh cluster before any Quanta process has. Idempotent: a subject whose latest version is this build's schema is
 * left alone; an older version is evolved when the registry's compatibility rule accepts the new one; otherwise the
 * difference is reported as drift, like {@link TopicsApply} does for topics, and nothing is changed.
 */
public final class SchemasApply {

    private final SchemaRegistryClient registry;

    public SchemasApply(SchemaRegistryClient registry) {
        this.registry = registry;
    }

    /** Applies every value schema of the catalogue, in catalogue order. */
    public List<SchemaApplyResult> apply(TopicCatalogue catalogue) {
        List<SchemaApplyResult> results = new ArrayList<>();
        for (Map.Entry<String, Schema> entry : catalogue.valueSchemas().entrySet()) {
            results.add(apply(entry.getKey(), entry.getValue()));
        }
        return results;
    }

    private SchemaApplyResult apply(String subject, Schema schema) {
        RegisteredSchema latest;
        try {
            latest = registry.latest(subject);
        } catch (SchemaRegistryException e) {
            if (!e.isNotFound()) {
                throw e;
            }
            registry.register(subject, schema);
            return new SchemaApplyResult(subject, SchemaApplyResult.Outcome.REGISTERED, "");
        }
        if (latest.schema().equals(schema)) {
            return new SchemaApplyResult(subject, SchemaApplyResult.Outcome.OK, "");
        }
        if (!registry.isCompatible(subject, schema)) {
            return new SchemaApplyResult(subject, SchemaApplyResult.Outcome.DRIFT, "latest version "
                    + latest.version() + " (id " + latest.id() + ") differs from this build's " + schema.getFullName()
                    + " and the registry refuses it as an incompatible change");
        }
        registry.register(subject, schema);
        return new SchemaApplyResult(subject, SchemaApplyResult.Outcome.REGISTERED, "");
    }
}
