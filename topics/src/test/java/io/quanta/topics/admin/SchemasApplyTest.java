package io.quanta.topics.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.topics.TopicCatalogue;
import io.quanta.topics.config.QuantaConfig;
import io.quanta.topics.registry.InMemorySchemaRegistryClient;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.Test;

class SchemasApplyTest {

    private final InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();
    private final TopicCatalogue catalogue = TopicCatalogue.forAdministration(QuantaConfig.of(Map.of()));

    @Test
    void shouldRegisterEveryValueSchemaOnAFreshRegistryThenFindThemUpToDate() {
        List<SchemaApplyResult> first = new SchemasApply(registry).apply(catalogue);
        List<SchemaApplyResult> second = new SchemasApply(registry).apply(catalogue);

        assertThat(first).hasSize(10).allSatisfy(r -> assertThat(r.outcome())
                .isEqualTo(SchemaApplyResult.Outcome.REGISTERED));
        assertThat(second).hasSize(10).allSatisfy(r -> assertThat(r.outcome()).isEqualTo(SchemaApplyResult.Outcome.OK));
        assertThat(registry.latest("quanta.jobs.submissions-value").schema())
                .isEqualTo(catalogue.valueSchemas().get("quanta.jobs.submissions-value"));
    }

    @Test
    void shouldReportAnIncompatibleRegisteredSchemaAsDriftWithoutChangingIt() {
        Schema foreign = SchemaBuilder.record("Other").fields().requiredString("x").endRecord();
        registry.register("quanta.jobs.events-value", foreign);

        List<SchemaApplyResult> results = new SchemasApply(registry).apply(catalogue);

        assertThat(results).filteredOn(r -> r.subject().equals("quanta.jobs.events-value")).singleElement()
                .satisfies(r -> {
                    assertThat(r.outcome()).isEqualTo(SchemaApplyResult.Outcome.DRIFT);
                    assertThat(r.detail()).contains("incompatible");
                });
        assertThat(registry.latest("quanta.jobs.events-value").schema()).isEqualTo(foreign);
    }
}
