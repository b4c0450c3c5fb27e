package io.quanta.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.core.placement.PlacementMode;
import io.quanta.core.placement.PlacementRule;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class PolicyConfigTest {

    @Test
    void shouldUseThePaperDefaultsWhenNothingIsGiven() {
        PolicyConfig c = PolicyConfig.defaults();

        assertThat(c.policyName()).isEqualTo("quanta");
        assertThat(c.get(PolicyConfigKeys.THRESHOLDS)).containsExactly(3250, 7200);
        assertThat(c.get(PolicyConfigKeys.STARVATION_KNOB)).isEmpty();
        assertThat(c.get(PolicyConfigKeys.QUANTUM_S)).isEqualTo(60.0);
        assertThat(c.get(PolicyConfigKeys.PLACEMENT_STRATEGY)).isEqualTo(PlacementMode.SKEW_AWARE);
        assertThat(c.quotasEnabled()).isFalse();
    }

    @Test
    void shouldListEveryProblemWithKeyAndAllowedValuesWhenInvalid() {
        assertThatThrownBy(() -> PolicyConfig.of(Map.of("placement.strategy", "random",
                "tiresias.thresholds", "7200,3250", "tiresias.starvation-knob", "-1", "gandiva.quantm-s", "60",
                "quota.a", "lots")))
                .isInstanceOfSatisfying(InvalidPolicyConfigException.class, e -> assertThat(e.problems())
                        .anySatisfy(p -> assertThat(p).startsWith("placement.strategy: invalid value 'random'")
                                .contains("allowed: consolidated, skew-aware, anywhere"))
                        .anySatisfy(p -> assertThat(p).startsWith("tiresias.thresholds:").contains("ascending"))
                        .anySatisfy(p -> assertThat(p).startsWith("tiresias.starvation-knob:")
                                .contains("off, or a positive number"))
                        .anySatisfy(p -> assertThat(p).startsWith("gandiva.quantm-s: unknown key")
                                .contains("gandiva.quantum-s"))
                        .anySatisfy(p -> assertThat(p).startsWith("quota.a:").contains("integer"))
                        .hasSize(5));
    }

    @Test
    void shouldRejectThresholdQuantilesOutsideTheOpenUnitIntervalOrOutOfOrder() {
        for (String bad : List.of("1", "0.5,1.2", "0", "-0.2", "0.9,0.5", "0.5,0.5", "median")) {
            assertThatThrownBy(() -> PolicyConfig.of(Map.of("quanta.threshold-quantiles", bad)))
                    .as(bad).isInstanceOfSatisfying(InvalidPolicyConfigException.class, e -> assertThat(e.problems())
                            .singleElement().asString().startsWith("quanta.threshold-quantiles:")
                            .contains("strictly ascending list of numbers in (0, 1)"));
        }
        assertThat(PolicyConfig.of(Map.of("quanta.threshold-quantiles", "off"))
                .get(PolicyConfigKeys.QUANTA_THRESHOLD_QUANTILES)).isEmpty();
        assertThat(PolicyConfig.of(Map.of("quanta.threshold-quantiles", " 0.8, 0.95 "))
                .get(PolicyConfigKeys.QUANTA_THRESHOLD_QUANTILES)).containsExactly(0.8, 0.95);
        assertThatThrownBy(() -> PolicyConfig.of(Map.of("quanta.knob-basis", "total")))
                .isInstanceOf(InvalidPolicyConfigException.class).hasMessageContaining("last-run, whole-run");
    }

    @Test
    void shouldRejectMalformedQueueMovementKeys() {
        assertThatThrownBy(() -> PolicyConfig.of(Map.of("quanta.promoted-preempts", "behind")))
                .isInstanceOf(InvalidPolicyConfigException.class).hasMessageContaining("any, ahead");
        assertThatThrownBy(() -> PolicyConfig.of(Map.of("quanta.knob-min-wait-s", "-1")))
                .isInstanceOf(InvalidPolicyConfigException.class).hasMessageContaining("quanta.knob-min-wait-s");
        assertThatThrownBy(() -> PolicyConfig.of(Map.of("quanta.relevel", "maybe")))
                .isInstanceOf(InvalidPolicyConfigException.class).hasMessageContaining("quanta.relevel");
    }

    @Test
    void shouldRejectMalformedReservationAndDefragmentationKeys() {
        assertRefusesMalformedSeconds("quanta.reserve-after-s");
        assertThat(PolicyConfig.of(Map.of("quanta.reserve-after-s", "3600"))
                .get(PolicyConfigKeys.QUANTA_RESERVE_AFTER_S)).isEqualTo(3600.0);
        assertThatThrownBy(() -> PolicyConfig.of(Map.of("quanta.defragment", "never")))
                .isInstanceOf(InvalidPolicyConfigException.class).hasMessageContaining("idle, always");
    }

    /** A key in seconds refuses negative, non-finite and non-numeric values, naming itself. */
    private static void assertRefusesMalformedSeconds(String key) {
        for (String bad : List.of("-1", "NaN", "Infinity", "an hour", "")) {
            assertThatThrownBy(() -> PolicyConfig.of(Map.of(key, bad)))
                    .as(key + "=" + bad).isInstanceOf(InvalidPolicyConfigException.class).hasMessageContaining(key);
        }
    }

    @Test
    void shouldRejectMalformedServiceEstimateAndMoveBound() {
        assertThatThrownBy(() -> PolicyConfig.of(Map.of("quanta.service-estimate", "kaplan-meier")))
                .isInstanceOf(InvalidPolicyConfigException.class)
                .hasMessageContaining("completed, censored, censored-index, censored-thresholds");
        assertRefusesMalformedSeconds("quanta.move-min-run-s");
        assertThat(PolicyConfig.of(Map.of("quanta.move-min-run-s", "1800"))
                .get(PolicyConfigKeys.QUANTA_MOVE_MIN_RUN_S)).isEqualTo(1800.0);
    }

    @Test
    void shouldRejectATenantPriorThatIsNoCountOfJobs() {
        // beyond a million pooled jobs the tenant's own jobs no longer count; at 1e308 the index's sums overflow to
        // infinity
        for (String bad : List.of("-1", "NaN", "Infinity", "1e308", "1000001", "one", "")) {
            assertThatThrownBy(() -> PolicyConfig.of(Map.of("quanta.tenant-prior-jobs", bad)))
                    .as(bad).isInstanceOf(InvalidPolicyConfigException.class)
                    .hasMessageContaining("quanta.tenant-prior-jobs");
        }
        assertThat(PolicyConfig.of(Map.of("quanta.tenant-prior-jobs", "1"))
                .get(PolicyConfigKeys.QUANTA_TENANT_PRIOR_JOBS)).isEqualTo(1.0);
    }

    @Test
    void shouldRejectMalformedPackAndOrderKeys() {
        assertThatThrownBy(() -> PolicyConfig.of(Map.of("quanta.pack-first", "first")))
                .isInstanceOf(InvalidPolicyConfigException.class).hasMessageContaining("quanta.pack-first");
        assertThatThrownBy(() -> PolicyConfig.of(Map.of("quanta.index-gate", "all")))
                .isInstanceOf(InvalidPolicyConfigException.class).hasMessageContaining("each, prefix");
        assertThatThrownBy(() -> PolicyConfig.of(Map.of("quanta.last-queue", "lifo")))
                .isInstanceOf(InvalidPolicyConfigException.class).hasMessageContaining("gittins, fifo");
        assertThatThrownBy(() -> PolicyConfig.of(Map.of("quanta.index-by-tenant", "tenant")))
                .isInstanceOf(InvalidPolicyConfigException.class).hasMessageContaining("quanta.index-by-tenant");
        assertThatThrownBy(() -> PolicyConfig.of(Map.of("quanta.index", "oracle")))
                .isInstanceOf(InvalidPolicyConfigException.class).hasMessageContaining("learned, declared");
        assertThatThrownBy(() -> PolicyConfig.of(Map.of("quanta.index", "")))
                .isInstanceOf(InvalidPolicyConfigException.class).hasMessageContaining("quanta.index");
        assertThatThrownBy(() -> PolicyConfig.of(Map.of("quanta.make-room", "yes")))
                .isInstanceOf(InvalidPolicyConfigException.class).hasMessageContaining("quanta.make-room");
        assertThatThrownBy(() -> PolicyConfig.of(Map.of("quanta.reconsolidate", "always")))
                .isInstanceOf(InvalidPolicyConfigException.class).hasMessageContaining("quanta.reconsolidate");
        assertThatThrownBy(() -> PolicyConfig.of(Map.of("quanta.unpack-room", "1")))
                .isInstanceOf(InvalidPolicyConfigException.class).hasMessageContaining("quanta.unpack-room");
        assertThatThrownBy(() -> PolicyConfig.of(Map.of("quanta.unpack-while-waiting", "always")))
                .isInstanceOf(InvalidPolicyConfigException.class).hasMessageContaining("quanta.unpack-while-waiting");
        assertThatThrownBy(() -> PolicyConfig.of(Map.of("quanta.gang-packs", "on")))
                .isInstanceOf(InvalidPolicyConfigException.class).hasMessageContaining("quanta.gang-packs");
        assertThatThrownBy(() -> PolicyConfig.of(Map.of("quanta.demotion-grace", "-0.1")))
                .isInstanceOf(InvalidPolicyConfigException.class).hasMessageContaining("quanta.demotion-grace");
        assertThatThrownBy(() -> PolicyConfig.of(Map.of("quanta.pack-victims", "host")))
                .isInstanceOf(InvalidPolicyConfigException.class).hasMessageContaining("with-guest, at-host");
        assertThatThrownBy(() -> PolicyConfig.of(Map.of("quanta.pack-locality", "on")))
                .isInstanceOf(InvalidPolicyConfigException.class).hasMessageContaining("any, rule");
        assertThatThrownBy(() -> PolicyConfig.of(Map.of("quanta.preemption-serves", "self")))
                .isInstanceOf(InvalidPolicyConfigException.class).hasMessageContaining("anyone, preemptor");
    }

    @Test
    void shouldRenderTheSameCanonicalTextWhenParamsDifferOnlyByDefaultsAndOrder() {
        PolicyConfig explicit = PolicyConfig.of(Map.of("policy", "tiresias-las", "gandiva.quantum-s", "60",
                "quota.b", "8", "quota.a", "4"));
        PolicyConfig implicit = PolicyConfig.of(Map.of("quota.a", "4", "quota.b", "8", "policy", "tiresias-las"));

        assertThat(explicit.canonical()).isEqualTo(implicit.canonical())
                .startsWith("gandiva.quantum-s=60\n")
                .contains("policy=tiresias-las\n", "quota.a=4\nquota.b=8\n", "tiresias.thresholds=3250,7200\n");
        assertThat(explicit).isEqualTo(implicit);
    }

    @Test
    void shouldGiveQuotasPerTenantWithADefaultWhenConfigured() {
        PolicyConfig c = PolicyConfig.of(Map.of("quota.vision", "64", "quota.default", "8"));

        assertThat(c.quotaOf("vision")).isEqualTo(OptionalDouble.of(64));
        assertThat(c.quotaOf("speech")).isEqualTo(OptionalDouble.of(8));
        assertThat(c.quotasEnabled()).isTrue();
    }

    @Test
    void shouldBuildThePlacementRuleOfThePlacementKeys() {
        PolicyConfig c = PolicyConfig.of(Map.of("placement.strategy", "consolidated", "placement.skew-threshold",
                "0.25", "placement.relaxation-timeout-s", "90"));

        assertThat(c.placementRule()).isEqualTo(new PlacementRule(PlacementMode.CONSOLIDATED, 0.25, 90));
    }
}
