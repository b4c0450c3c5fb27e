package io.quanta.sim.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.quanta.node.model.InterferenceTable;
import io.quanta.node.model.ModelFamily;
import io.quanta.sim.engine.FidelityMode;
import io.quanta.sim.profile.ProfileAssigner;
import io.quanta.sim.testing.Traces;
import io.quanta.sim.trace.Trace;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The most service one GPU gives per second, by model and jobs per GPU. */
class PackingGainTest {

    @Test
    void shouldTakeTwoLanguageModelsAsTheBestPairOfTheRealisticModel() {
        assertThat(PackingGain.DEFAULT_JOBS_PER_GPU).isEqualTo(2);
        assertThat(PackingGain.factor(FidelityMode.REALISTIC, 2)).isCloseTo(1.62, within(1e-12));
        assertThat(PackingGain.factor(FidelityMode.REALISTIC_SWITCH_X2, 2)).isCloseTo(1.62, within(1e-12));
        assertThat(PackingGain.factor(FidelityMode.REALISTIC_SPREAD_HALF, 2)).isCloseTo(1.62, within(1e-12));
    }

    @Test
    void shouldGainNothingWhenNoPairGainsOrOnlyOneJobRunsPerGpu() {
        assertThat(PackingGain.factor(FidelityMode.REALISTIC_NO_PACK_GAIN, 2)).isCloseTo(1.0, within(1e-12));
        assertThat(PackingGain.factor(FidelityMode.REALISTIC, 1)).isCloseTo(1.0, within(1e-12));
    }

    @Test
    void shouldCountEveryPackedJobAtFullSpeedInTheTiresiasCompatibleModel() {
        assertThat(PackingGain.factor(FidelityMode.TIRESIAS_COMPATIBLE, 2)).isEqualTo(2.0);
        assertThat(PackingGain.factor(FidelityMode.TIRESIAS_COMPATIBLE, 5)).isEqualTo(5.0);
    }

    @Test
    void shouldGiveEachModelFamilyTheBestPackItCanBeIn() {
        assertThat(PackingGain.familyFactor(FidelityMode.REALISTIC, 2, ModelFamily.LANGUAGE)).isCloseTo(1.62,
                within(1e-12));
        assertThat(PackingGain.familyFactor(FidelityMode.REALISTIC, 2, ModelFamily.RESNET)).isCloseTo(1.5,
                within(1e-12));
        assertThat(PackingGain.familyFactor(FidelityMode.REALISTIC, 2, ModelFamily.VGG)).isCloseTo(1.0, within(1e-12));
        assertThat(PackingGain.familyFactor(FidelityMode.REALISTIC_NO_PACK_GAIN, 2, ModelFamily.LANGUAGE))
                .isCloseTo(1.0, within(1e-12));
        assertThat(PackingGain.familyFactor(FidelityMode.TIRESIAS_COMPATIBLE, 2, ModelFamily.VGG)).isEqualTo(2.0);
    }

    @Test
    void shouldChargeEachJobOneOverItsFamilysFactorUnderTheSimulatorsModelMix() {
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            rows.add("j" + i + "," + i + ",1,10");
        }
        Trace trace = Traces.of(rows.toArray(String[]::new));

        double[] u = PackingGain.gpuSecondsPerWork(trace, 3, FidelityMode.REALISTIC, 2);

        ProfileAssigner profiles = ProfileAssigner.standard(3);
        for (int j = 0; j < u.length; j++) {
            ModelFamily family = ModelFamily.of(profiles.kindOf(trace.jobs().get(j).jobId()).modelName());
            assertThat(u[j]).isCloseTo(family == ModelFamily.LANGUAGE ? 1 / 1.62 : family == ModelFamily.RESNET
                    ? 1 / 1.5 : 1.0, within(1e-12));
        }
        assertThat(Arrays.stream(u).distinct().count()).isEqualTo(3);
        assertThat(PackingGain.gpuSecondsPerWork(trace, 3, FidelityMode.REALISTIC_NO_PACK_GAIN, 2)).containsOnly(1.0);
    }

    @Test
    void shouldGrowWithMoreJobsPerGpu() {
        // three language models: each loses 19% to each of the two others, 3 x 0.81^2
        assertThat(PackingGain.factor(FidelityMode.REALISTIC, 3)).isCloseTo(3 * 0.81 * 0.81, within(1e-12));
        // ResNet is unharmed by a language model, the language model loses the default half to ResNet
        assertThat(PackingGain.packSpeed(InterferenceTable.gandiva(), List.of(ModelFamily.RESNET,
                ModelFamily.LANGUAGE))).isCloseTo(1.5, within(1e-12));
    }
}
