package io.quanta.sim.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quanta.sim.cluster.ClusterShape;
import io.quanta.sim.testing.Traces;
import io.quanta.sim.trace.Trace;
import io.quanta.sim.trace.TraceLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The heavy and moderate sizes of the suite's rule. */
class LoadRuleTest {

    @Test
    void shouldKeepTheLadderSortedFromSixteenToSevenHundredSixtyEightGpus() {
        List<Integer> sizes = LoadRule.LADDER.stream().map(ClusterShape::totalGpus).toList();

        assertThat(sizes).isSorted().doesNotHaveDuplicates().startsWith(16).endsWith(768);
        assertThat(LoadRule.LADDER).allSatisfy(s -> {
            assertThat(s.gpusPerServer()).isEqualTo(8);
            assertThat(s.serversPerRack()).isLessThanOrEqualTo(16);
        });
    }

    @Test
    void shouldPickTheLargestHeavySizeAndTheFirstModerateSizeAboveItWhenLoadFallsWithSize() {
        // 200 one-GPU jobs of 1,000 s, one every 10 s: fifo queues 4.84, 2.80, 1.80, 0.83, 0.39 mean services on
        // 16, 24, 32, 48 and 64 GPUs
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            rows.add("j" + i + "," + (10 * i) + ",1,1000");
        }
        Trace trace = Traces.of(rows.toArray(String[]::new));

        LoadRule.Choice choice = LoadRule.choose(trace);

        assertThat(choice.ratioAt(choice.heavy())).isGreaterThanOrEqualTo(LoadRule.HEAVY);
        assertThat(choice.ratios()).filteredOn(r -> r.shape().totalGpus() > choice.heavy().totalGpus())
                .allSatisfy(r -> assertThat(r.ratio()).isLessThan(LoadRule.HEAVY));
        assertThat(choice.ratioAt(choice.moderate())).isLessThanOrEqualTo(LoadRule.MODERATE);
        assertThat(choice.ratios()).filteredOn(r -> r.shape().totalGpus() > choice.heavy().totalGpus()
                        && r.shape().totalGpus() < choice.moderate().totalGpus())
                .allSatisfy(r -> assertThat(r.ratio()).isGreaterThan(LoadRule.MODERATE));
        assertThat(choice.heavy().totalGpus()).isEqualTo(24);
        assertThat(choice.moderate().totalGpus()).isEqualTo(64);
    }

    @Test
    void shouldStartTheLadderAtTheFirstSizeThatHoldsTheLargestJob() {
        Trace trace = Traces.of("a,0,40,100", "b,1,1,100");

        LoadRule.Choice choice = LoadRule.choose(trace);

        assertThat(choice.ratios().get(0).shape().totalGpus()).isEqualTo(48);
        assertThat(choice.heavy().totalGpus()).as("nothing is heavy: the smallest size that fits").isEqualTo(48);
    }

    @Test
    void shouldRefuseATraceWhoseLargestJobExceedsTheLadder() {
        assertThatThrownBy(() -> LoadRule.choose(Traces.of("a,0,1000,100")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1000 GPUs");
    }

    @Test
    void shouldChooseTheHandPickedSizesWhenTheTraceIsTheDevelopersSlice() {
        Optional<Path> file = Traces.shared("philly_dev_slice_2000.csv");
        assumeTrue(file.isPresent(), "assumption: ../shared/traces/philly_dev_slice_2000.csv is absent; skipped");

        LoadRule.Choice choice = LoadRule.choose(TraceLoader.load(file.get()));

        assertThat(choice.heavy()).isEqualTo(ClusterShape.parse("2x12x8"));
        assertThat(choice.moderate()).isEqualTo(ClusterShape.parse("2x16x8"));
    }
}
