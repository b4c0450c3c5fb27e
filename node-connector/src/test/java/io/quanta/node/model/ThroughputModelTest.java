package io.quanta.node.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.quanta.schemas.GpuRef;
import io.quanta.schemas.ModelProfile;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ThroughputModelTest {

    private static final ThroughputModel MODEL = ThroughputModel.standard();

    static ModelProfile profile(String name, double skew, int memoryMiB) {
        return ModelProfile.newBuilder().setModelName(name).setTensorSizeSkew(skew).setGpuMemoryMiB(memoryMiB).build();
    }

    private static JobPlacementView spread(ModelProfile p, int gpus, int servers, int racks) {
        return new JobPlacementView(p, gpus, servers, racks, List.of());
    }

    @Test
    void shouldRunAtFullSpeedWhenAloneOnOneServer() {
        assertThat(MODEL.speed(JobPlacementView.consolidated(profile("vgg16", 1.0, 8_000), 8))).isEqualTo(1.0);
    }

    @Test
    void shouldMatchPhillyCommunicationShareWhenAFullySkewedJobSpansEightServers() {
        double speed = MODEL.speed(spread(profile("vgg16", 1.0, 0), 32, 8, 1));

        // Philly: communication = 58% of training time on 8 x 4-GPU servers, i.e. speed 0.42
        assertThat(speed).isCloseTo(1 / (1 + 0.46 * 3), within(1e-12));
        assertThat(1 - speed).isCloseTo(0.58, within(0.005));
    }

    @Test
    void shouldStayCloseToPhillyUtilisationRatioWhenGoingFromTwoToEightServers() {
        ModelProfile p = profile("vgg16", 1.0, 0);
        double ratio = MODEL.speed(spread(p, 16, 8, 1)) / MODEL.speed(spread(p, 16, 2, 1));

        // Philly: 16-GPU jobs had 28.56% GPU utilisation on 8 servers and 43.66% on 2 (ratio 0.654)
        assertThat(ratio).isCloseTo(28.56 / 43.66, within(0.05));
    }

    @Test
    void shouldScaleTheSlowdownWithTheTensorSkewWhenSpread() {
        double lowSkew = MODEL.speed(spread(profile("resnet50", 0.1, 0), 8, 2, 1));
        double highSkew = MODEL.speed(spread(profile("vgg16", 0.9, 0), 8, 2, 1));

        assertThat(lowSkew).isCloseTo(1 / (1 + 0.1 * 0.46), within(1e-12));
        assertThat(highSkew).isCloseTo(1 / (1 + 0.9 * 0.46), within(1e-12));
        assertThat(MODEL.speed(spread(profile("resnet50", 0.0, 0), 8, 4, 2))).isEqualTo(1.0);
    }

    @Test
    void shouldAddTheRackPenaltyWhenTheGangSpansRacks() {
        double speed = MODEL.speed(spread(profile("inception3", 0.5, 0), 8, 4, 2));

        assertThat(speed).isCloseTo(1 / (1 + 0.5 * (0.46 * 2 + 0.5)), within(1e-12));
    }

    @Test
    void shouldUseGandivaFiguresWhenLanguageModelsArePacked() {
        ModelProfile lm = profile("lstm", 0.0, 2_000);
        ModelProfile resnet = profile("resnet50", 0.2, 4_000);

        assertThat(MODEL.speed(new JobPlacementView(lm, 1, 1, 1, List.of(lm)))).isCloseTo(0.81, within(1e-12));
        assertThat(MODEL.speed(new JobPlacementView(resnet, 1, 1, 1, List.of(lm)))).isEqualTo(1.0);
        assertThat(MODEL.speed(new JobPlacementView(lm, 1, 1, 1, List.of(resnet)))).isEqualTo(0.5);
    }

    @Test
    void shouldMultiplySlowdownsWhenPackedWithSeveralJobs() {
        ModelProfile vgg = profile("vgg16", 0.8, 6_000);

        assertThat(MODEL.speed(new JobPlacementView(vgg, 1, 1, 1, List.of(vgg, vgg)))).isCloseTo(0.25, within(1e-12));
    }

    @Test
    void shouldCombineLocalityAndInterferenceWhenSpreadAndPacked() {
        ModelProfile lm = profile("lstm", 1.0, 2_000);

        double speed = MODEL.speed(new JobPlacementView(lm, 2, 2, 1, List.of(lm)));

        assertThat(speed).isCloseTo(0.81 / 1.46, within(1e-12));
    }

    @Test
    void shouldIgnoreLocalityAndInterferenceWhenTiresiasCompatible() {
        ThroughputModel tiresias = ThroughputModel.tiresiasCompatible();
        ModelProfile vgg = profile("vgg16", 1.0, 16_000);

        assertThat(tiresias.speed(new JobPlacementView(vgg, 16, 8, 2, List.of(vgg, vgg)))).isEqualTo(1.0);
        assertThat(tiresias.suspendCost(vgg)).isZero();
        assertThat(tiresias.resumeCost(vgg)).isZero();
        assertThat(tiresias.isTiresiasCompatible()).isTrue();
        assertThat(ThroughputModel.named("tiresias-compatible").isTiresiasCompatible()).isTrue();
    }

    @Test
    void shouldChargeCheckpointSizeWhenSuspendingAndResuming() {
        ModelProfile p = profile("resnet50", 0.2, 16_000);

        assertThat(MODEL.suspendCost(p)).isEqualTo(Duration.ofSeconds(17));
        assertThat(MODEL.resumeCost(p)).isEqualTo(Duration.ofSeconds(26));
        assertThat(MODEL.suspendCost(profile("x", 0, 0))).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void shouldCapSwitchCostsAtOneMinuteWhenTheModelIsHuge() {
        ModelProfile huge = profile("transformer", 0.5, 80_000);

        assertThat(MODEL.suspendCost(huge)).isEqualTo(Duration.ofSeconds(60));
        assertThat(MODEL.resumeCost(huge)).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void shouldTakeTheMinibatchTimeFromTheProfileHintOrTheFamilyDefault() {
        ModelProfile hinted = profile("resnet50", 0.2, 0);
        hinted.setMinibatchMillis(123.5);

        assertThat(MODEL.minibatchTime(hinted)).isEqualTo(Duration.ofNanos(123_500_000));
        assertThat(MODEL.minibatchTime(profile("resnet101", 0.2, 0))).isEqualTo(Duration.ofMillis(200));
        assertThat(MODEL.minibatchTime(profile("something", 0.2, 0))).isEqualTo(Duration.ofMillis(150));
    }

    @Test
    void shouldCountServersAndRacksWhenBuildingTheViewFromAPlacement() {
        Map<String, String> racks = Map.of("n1", "r1", "n2", "r1", "n3", "r2");
        List<GpuRef> placement = List.of(new GpuRef("n1", 0), new GpuRef("n1", 1), new GpuRef("n2", 0),
                new GpuRef("n3", 5));

        JobPlacementView view = JobPlacementView.of(profile("vgg16", 1, 0), placement, racks::get, List.of());

        assertThat(view.gpus()).isEqualTo(4);
        assertThat(view.servers()).isEqualTo(3);
        assertThat(view.racks()).isEqualTo(2);
    }

    @Test
    void shouldRejectAnUnknownModelName() {
        assertThatThrownBy(() -> ThroughputModel.named("fast"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'fast'");
    }

    @Test
    void shouldMapModelNamesToFamilies() {
        assertThat(ModelFamily.of("ResNet-50")).isEqualTo(ModelFamily.RESNET);
        assertThat(ModelFamily.of("vgg19")).isEqualTo(ModelFamily.VGG);
        assertThat(ModelFamily.of("googlenet")).isEqualTo(ModelFamily.INCEPTION);
        assertThat(ModelFamily.of("lstm-ptb")).isEqualTo(ModelFamily.LANGUAGE);
        assertThat(ModelFamily.of("bert-large")).isEqualTo(ModelFamily.TRANSFORMER);
        assertThat(ModelFamily.of(null)).isEqualTo(ModelFamily.OTHER);
    }
}
