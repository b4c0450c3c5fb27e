package io.quanta.sim.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProfileAssignerTest {

    @Test
    void shouldGiveTheSameKindForTheSameSeedAndIdWhateverTheOrder() {
        ProfileAssigner a = ProfileAssigner.standard(7);
        ProfileAssigner b = ProfileAssigner.standard(7);

        assertThat(b.kindOf("philly-000042")).isEqualTo(a.kindOf("philly-000042"));
        a.kindOf("other");
        assertThat(a.kindOf("philly-000043")).isEqualTo(b.kindOf("philly-000043"));
    }

    @Test
    void shouldFollowTheStandardMixOverManyJobs() {
        ProfileAssigner assigner = ProfileAssigner.standard(42);
        Map<ModelKind, Integer> counts = new EnumMap<>(ModelKind.class);
        int n = 100_000;
        for (int i = 0; i < n; i++) {
            counts.merge(assigner.kindOf("job-" + i), 1, Integer::sum);
        }

        ProfileAssigner.standardMixWeights().forEach((kind, weight) ->
                assertThat(counts.get(kind) / (double) n).as(kind.name()).isCloseTo(weight, within(0.01)));
    }

    @Test
    void shouldChangeTheAssignmentWhenTheSeedChanges() {
        ProfileAssigner one = ProfileAssigner.standard(1);
        ProfileAssigner two = ProfileAssigner.standard(2);
        int differences = 0;
        for (int i = 0; i < 100; i++) {
            if (one.kindOf("j" + i) != two.kindOf("j" + i)) {
                differences++;
            }
        }

        assertThat(differences).isGreaterThan(50);
    }

    @Test
    void shouldGiveSkewedModelsAProfileAboveTheDefaultConsolidationThreshold() {
        assertThat(ModelKind.VGG16.profile().getTensorSizeSkew()).isGreaterThan(0.5);
        assertThat(ModelKind.ALEXNET.profile().getTensorSizeSkew()).isGreaterThan(0.5);
        assertThat(ModelKind.RESNET50.profile().getTensorSizeSkew()).isLessThan(0.5);
        assertThat(ModelKind.LSTM_LM.profile().getGpuMemoryMiB()).isPositive();
    }
}
