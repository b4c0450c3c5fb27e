package io.quanta.cli.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class LocalPartTest {

    @Test
    void shouldParseTheInfrastructureAloneOrWithSomeParts() {
        assertThat(LocalPart.parse(List.of("broker", "registry"))).containsExactlyInAnyOrder(LocalPart.BROKER,
                LocalPart.REGISTRY);
        assertThat(LocalPart.parse(List.of(" Registry", "BROKER ", "nodes", "broker")))
                .containsExactlyInAnyOrder(LocalPart.BROKER, LocalPart.REGISTRY, LocalPart.NODES);
        assertThat(LocalPart.labels(LocalPart.all())).isEqualTo("broker,registry,scheduler,nodes");
    }

    @Test
    void shouldRefuseUnknownPartsNamingTheAllowedOnes() {
        assertThatThrownBy(() -> LocalPart.parse(List.of("broker", "registry", "topics")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown part 'topics'").hasMessageContaining("broker,registry,scheduler,nodes")
                .hasMessageContaining("topics and schemas are always applied");
    }

    @Test
    void shouldRefuseAListWithoutBrokerAndRegistry() {
        assertThatThrownBy(() -> LocalPart.parse(List.of("scheduler")))
                .hasMessageContaining("broker and registry are always needed");
        assertThatThrownBy(() -> LocalPart.parse(List.of())).hasMessageContaining("at least broker,registry");
    }
}
