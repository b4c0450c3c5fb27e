package io.quanta.sim.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ClusterShapeTest {

    @Test
    void shouldParseRacksServersAndGpusWhenWrittenRxSxG() {
        ClusterShape shape = ClusterShape.parse("2x12x8");

        assertThat(shape).isEqualTo(new ClusterShape(2, 12, 8));
        assertThat(shape.totalGpus()).isEqualTo(192);
        assertThat(shape.nodeIds()).hasSize(24).startsWith("r00-s000", "r00-s001").endsWith("r01-s011");
        assertThat(ClusterShape.rackOf("r01-s011")).isEqualTo("r01");
        assertThat(shape).hasToString("2x12x8");
    }

    @Test
    void shouldExplainTheFormatWhenTheShapeIsMalformed() {
        assertThatThrownBy(() -> ClusterShape.parse("192")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2x12x8");
        assertThatThrownBy(() -> ClusterShape.parse("0x1x1")).isInstanceOf(IllegalArgumentException.class);
    }
}
