package io.quanta.core.policy.quanta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.core.config.InvalidPolicyConfigException;
import io.quanta.core.config.PolicyConfig;
import io.quanta.core.config.PolicyConfigKeys;
import io.quanta.core.placement.PlacementMode;
import io.quanta.core.placement.PlacementRule;
import java.util.HashMap;
import java.util.Map;
import io.quanta.core.stage.GittinsPreemptionGate;
import io.quanta.core.stage.QueueRules;
import java.util.List;
import java.util.OptionalDouble;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** One row per rule of how the {@code quanta.*} keys replace the shared settings, for quanta only. */
class QuantaSettingsTest {

    record Row(String name, String params, QuantaSettings expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** Every quanta default but the placement rule. */
    private static QuantaSettings defaultsWith(PlacementRule placement) {
        return new QuantaSettings(placement, OptionalDouble.of(4), new QueueRules(60, false, false, 0),
                new QuantaSettings.Order(true, true, true, 0, false, List.of(0.8, 0.95), false, false),
                new QuantaSettings.Preemption(true, false, GittinsPreemptionGate.LookAhead.THRESHOLD, true, 2, 0, 0.1,
                        true, true),
                new QuantaSettings.Packing(0.1, 0, true, false, false, false, true),
                new QuantaSettings.Room(true, true, false, 0, 0, false));
    }

    static Stream<Row> rows() {
        return Stream.of(
                new Row("defaults: skew 0.05, one hour or half the run, knob 4, gain 0.1, no speed bound, gittins, "
                                + "index gate, index by tenant, last queue by arrival, thresholds at quantiles 0.8 "
                                + "and 0.95, promoted jobs preempt only jobs "
                                + "ahead, make-room, a demotion grace of 0.1, packs yield at their host's place, a "
                                + "waiting gang packs only where it could start, the completed jobs' service, a "
                                + "preemption only for its preemptor", "",
                        defaultsWith(new PlacementRule(PlacementMode.SKEW_AWARE, 0.05, 3600, 0.5))),
                new Row("the shared keys do not change quanta",
                        "placement.skew-threshold=0.7 placement.relaxation-timeout-s=10 tiresias.starvation-knob=off "
                                + "introspection.min-gain=0",
                        defaultsWith(new PlacementRule(PlacementMode.SKEW_AWARE, 0.05, 3600, 0.5))),
                new Row("quanta keys set every field",
                        "quanta.skew-threshold=0.5 quanta.relaxation-timeout-s=300 quanta.starvation-knob=off "
                                + "quanta.pack-min-gain=0 quanta.pack-min-speed=0.5 quanta.unpack=off quanta.ranking=las "
                                + "quanta.consolidation-patience=0 quanta.preempt-by-index=off "
                                + "quanta.threshold-quantiles=0.5,0.8 quanta.knob-basis=whole-run quanta.relevel=on "
                                + "quanta.knob-min-wait-s=600 quanta.promoted-preempts=any "
                                + "tiresias.promoted-min-run-s=90 quanta.preemption-backoff-s=1200 "
                                + "quanta.promoted-preempts-margin=3 quanta.pack-first=on quanta.index-gate=prefix "
                                + "quanta.last-queue=gittins quanta.index-by-tenant=off quanta.reserve-after-s=900 "
                                + "quanta.defragment=always quanta.index=declared quanta.make-room=off "
                                + "quanta.reconsolidate=off quanta.unpack-room=on quanta.unpack-while-waiting=on "
                                + "quanta.gang-packs=proven quanta.demotion-grace=0.25 quanta.pack-victims=with-guest "
                                + "quanta.pack-locality=any quanta.service-estimate=censored "
                                + "quanta.move-min-run-s=1800 quanta.preemption-serves=anyone quanta.gate-index=best "
                                + "quanta.tenant-prior-jobs=2",
                        new QuantaSettings(new PlacementRule(PlacementMode.SKEW_AWARE, 0.5, 300, 0),
                                OptionalDouble.empty(), new QueueRules(90, true, true, 600),
                                new QuantaSettings.Order(false, false, false, 2, true, List.of(0.5, 0.8), true, true),
                                new QuantaSettings.Preemption(false, true, GittinsPreemptionGate.LookAhead.BEST, false,
                                        3, 1200, 0.25, false, false),
                                new QuantaSettings.Packing(0, 0.5, false, true, true, true, false),
                                new QuantaSettings.Room(false, false, true, 1800, 900, true))),
                new Row("another placement mode keeps its shared skew threshold",
                        "placement.strategy=anywhere placement.skew-threshold=0.3",
                        defaultsWith(new PlacementRule(PlacementMode.ANYWHERE, 0.3, 3600, 0.5))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void shouldDeriveQuantaSettingsFromTheConfig(Row row) {
        assertThat(QuantaSettings.from(PolicyConfig.of(params(row.params())))).isEqualTo(row.expected());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void shouldHandTheGandivaMechanismsQuantasPackThreshold(Row row) {
        PolicyConfig config = PolicyConfig.of(params(row.params()));

        assertThat(row.expected().introspectionConfig(config).get(PolicyConfigKeys.INTROSPECTION_MIN_GAIN))
                .isEqualTo(row.expected().packing().minGain());
    }

    @ParameterizedTest(name = "quanta.service-estimate={0}: thresholds censored {1}, index censored {2}")
    @org.junit.jupiter.params.provider.CsvSource({"completed, false, false", "censored, true, true",
            "censored-index, false, true", "censored-thresholds, true, false"})
    void shouldCensorWhatTheServiceEstimateNames(String value, boolean thresholds, boolean index) {
        QuantaSettings settings = QuantaSettings.from(PolicyConfig.of(Map.of("quanta.service-estimate", value)));

        assertThat(settings.order().censoredThresholds()).isEqualTo(thresholds);
        assertThat(settings.order().censoredIndex()).isEqualTo(index);
    }

    @org.junit.jupiter.api.Test
    void shouldNameTheAllowedValuesWhenTheRankingIsUnknown() {
        assertThatThrownBy(() -> PolicyConfig.of(Map.of("quanta.ranking", "srtf")))
                .isInstanceOf(InvalidPolicyConfigException.class)
                .hasMessageContaining("quanta.ranking: invalid value 'srtf'")
                .hasMessageContaining("allowed: las, gittins");
    }

    private static Map<String, String> params(String text) {
        Map<String, String> params = new HashMap<>();
        for (String kv : text.split(" ")) {
            if (!kv.isEmpty()) {
                String[] p = kv.split("=", 2);
                params.put(p[0], p[1]);
            }
        }
        return params;
    }
}
