package io.quanta.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.node.model.JobPlacementView;
import io.quanta.node.model.ModelFamily;
import io.quanta.node.model.ThroughputModel;
import io.quanta.node.model.ThroughputParameters;
import io.quanta.schemas.ModelProfile;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The model variants change exactly the guesses they name. */
class FidelityModeTest {

    private static final ModelProfile VGG = ModelProfile.newBuilder().setModelName("vgg16").setTensorSizeSkew(0.74)
            .setGpuMemoryMiB(8_000).setMinibatchMillis(250.0).build();

    @Test
    void shouldKeepTheStandardParametersForTheOriginalModes() {
        ThroughputParameters standard = ThroughputParameters.standard();
        ThroughputParameters realistic = FidelityMode.REALISTIC.parameters();

        assertThat(realistic).usingRecursiveComparison().ignoringFields("interference").isEqualTo(standard);
        for (ModelFamily a : ModelFamily.values()) {
            for (ModelFamily b : ModelFamily.values()) {
                assertThat(realistic.interference().slowdown(a, b)).isEqualTo(standard.interference().slowdown(a, b));
            }
        }
        assertThat(FidelityMode.TIRESIAS_COMPATIBLE.throughputModel().isTiresiasCompatible()).isTrue();
        assertThat(FidelityMode.REALISTIC.throughputModel().isTiresiasCompatible()).isFalse();
    }

    @Test
    void shouldDoubleEverySwitchCostWhenTheVariantIsSwitchX2() {
        ThroughputModel standard = FidelityMode.REALISTIC.throughputModel();
        ThroughputModel x2 = FidelityMode.REALISTIC_SWITCH_X2.throughputModel();

        assertThat(standard.suspendCost(VGG)).isEqualTo(Duration.ofSeconds(9));
        assertThat(x2.suspendCost(VGG)).isEqualTo(Duration.ofSeconds(18));
        assertThat(x2.resumeCost(VGG)).isEqualTo(standard.resumeCost(VGG).multipliedBy(2));
        assertThat(x2.parameters().maxSwitchCost()).isEqualTo(Duration.ofSeconds(120));
        assertThat(x2.parameters().interference().slowdown(ModelFamily.LANGUAGE, ModelFamily.LANGUAGE))
                .isEqualTo(0.19);
    }

    @Test
    void shouldLetNoPairGainFromPackingWhenTheVariantIsNoPackGain() {
        ThroughputParameters p = FidelityMode.REALISTIC_NO_PACK_GAIN.parameters();

        for (ModelFamily a : ModelFamily.values()) {
            for (ModelFamily b : ModelFamily.values()) {
                assertThat(p.interference().slowdown(a, b) + p.interference().slowdown(b, a))
                        .as("%s with %s", a, b).isGreaterThanOrEqualTo(1.0);
            }
        }
        assertThat(p.checkpointFixed()).isEqualTo(ThroughputParameters.standard().checkpointFixed());
    }

    @Test
    void shouldHalveTheLocalitySlowdownWhenTheVariantIsSpreadHalf() {
        JobPlacementView spread = new JobPlacementView(VGG, 4, 4, 2, java.util.List.of());

        double standard = 1 / FidelityMode.REALISTIC.throughputModel().localityFactor(spread) - 1;
        double half = 1 / FidelityMode.REALISTIC_SPREAD_HALF.throughputModel().localityFactor(spread) - 1;

        assertThat(half).isCloseTo(standard / 2, org.assertj.core.data.Offset.offset(1e-12));
    }

    @Test
    void shouldNameEveryModelWhenOneIsUnknown() {
        assertThatThrownBy(() -> FidelityMode.parse("fast"))
                .hasMessageContaining("realistic-switch-x2").hasMessageContaining("tiresias-compatible");
        for (FidelityMode mode : FidelityMode.values()) {
            assertThat(FidelityMode.parse(mode.label())).isEqualTo(mode);
        }
    }
}
