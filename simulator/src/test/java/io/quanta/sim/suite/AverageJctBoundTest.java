package io.quanta.sim.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.quanta.sim.testing.Traces;
import io.quanta.sim.trace.Trace;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The lower bound on the average JCT against hand-computed answers, the floor, the ideal schedule and, on small
 * instances, the best schedule found by exhaustive search.
 */
class AverageJctBoundTest {

    @Test
    void shouldRunTheShorterOfTwoJobsFirstOnOneGpu() {
        // both at 0 on 1 GPU: 10 s and 20 s; the best order ends them at 10 and 30
        Trace trace = Traces.of("a,0,1,10", "b,0,1,20");

        assertThat(trace.meanDurationSeconds()).isEqualTo(15.0);
        assertThat(srptAverageJct(trace, 1, one(trace))).isCloseTo(20.0, within(1e-9));
        assertThat(AverageJctBound.averageJct(trace, 1, 1.0)).isCloseTo(20.0, within(1e-9));
        assertThat(IdealSchedule.averageJct(trace, 1)).isCloseTo(20.0, within(1e-9));
    }

    @Test
    void shouldReachTheOptimumOfOneGpuJobsThatArriveTogetherThroughTheMeanBusyTime() {
        // 10 jobs of 100 s on 5 GPUs: the best is 5 at a time, JCTs 100 and 200, mean 150. SRPT on a machine of speed
        // 5 ends them at 20, 40, ..., 200; with the durations: 100 x 5, 120, ..., 200, mean 130. Preemptive SPT's mean
        // busy times 10, 30, ..., 190 (mean 100) plus half a duration: 150.
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            rows.add("j" + i + ",0,1,100");
        }
        Trace trace = Traces.of(rows.toArray(String[]::new));

        assertThat(AverageJctBound.orderStatisticsAverageJct(trace, 5, one(trace))).isCloseTo(130.0, within(1e-9));
        assertThat(AverageJctBound.meanBusyTimeAverageJct(trace, 5, one(trace))).isCloseTo(150.0, within(1e-9));
        assertThat(AverageJctBound.averageJct(trace, 5, 1.0)).isCloseTo(150.0, within(1e-9));
        assertThat(IdealSchedule.averageJct(trace, 5)).isCloseTo(150.0, within(1e-9));
    }

    @Test
    void shouldNeverGoBelowEachJobsOwnDurationWhenPackingDoublesTheService() {
        // a machine of speed 2 ends them at 5 and 15 (SRPT alone: 10), but no job ends before its own duration: 15
        Trace trace = Traces.of("a,0,1,10", "b,0,1,20");

        double[] twice = AverageJctBound.uniform(trace, 2);
        assertThat(srptAverageJct(trace, 1, twice)).isCloseTo(10.0, within(1e-9));
        // mean busy time: a in 0-5 (2.5 + 5), b in 5-15 (10 + 10): 13.75
        assertThat(AverageJctBound.meanBusyTimeAverageJct(trace, 1, twice)).isCloseTo(13.75, within(1e-9));
        assertThat(AverageJctBound.averageJct(trace, 1, 2.0)).isCloseTo(15.0, within(1e-9));
    }

    @Test
    void shouldKeepAJobsMeanBusyTimeWhenItsWorkTakesLessThanTheResolutionOfTheClock() {
        // one 10 s job submitted at 1e9 s whose work costs almost nothing on the pool (1e-8 GPU-seconds a unit): it
        // takes the pool 1e-7 s, under the step of a double near 1e9 s (about 1.2e-7 s). Its JCT alone is 10 s, and no
        // bound may say more. end * end - t * t over that rounded step made its mean busy time 1.19e9 s (bound 2); the
        // capped relaxation's seconds, taken as differences of times near 1e9 s, made it 11.4 s (bound 3)
        Trace trace = Traces.of("a,1000000000,1,10");
        double[] almostFree = {1e-8};

        assertThat(AverageJctBound.meanBusyTimeAverageJct(trace, 1, almostFree)).isCloseTo(5.0, within(1e-3));
        assertThat(AverageJctBound.averageJct(trace, 1, almostFree)).isCloseTo(10.0, within(1e-6));
    }

    @Test
    void shouldCombineTheMachineAndTheDurationsAboveBoth() {
        // 2 GPUs; a: 1 GPU 3 s, b: 2 GPUs 10 s, c: 1 GPU 5 s, all at 0. Floor (3 + 10 + 5) / 3 = 6. SRPT on a pool
        // of 2 with sizes 3, 20, 5 ends them at 1.5, 4, 14: 6.5. Durations sorted 3, 5, 10: max per rank 3, 5, 14 =
        // 22 / 3. Mean busy time: a in 0-1.5, c in 1.5-4, b in 4-14: (2.25 + 5.25 + 14) / 3 = 21.5 / 3. The ideal
        // schedule runs a and c, then b from 5 to 15: 23 / 3.
        Trace trace = Traces.of("a,0,1,3", "b,0,2,10", "c,0,1,5");

        assertThat(srptAverageJct(trace, 2, one(trace))).isCloseTo(6.5, within(1e-9));
        assertThat(AverageJctBound.meanBusyTimeAverageJct(trace, 2, one(trace))).isCloseTo(21.5 / 3, within(1e-9));
        assertThat(AverageJctBound.averageJct(trace, 2, 1.0)).isCloseTo(22.0 / 3, within(1e-9));
        assertThat(IdealSchedule.averageJct(trace, 2)).isCloseTo(23.0 / 3, within(1e-9));
    }

    @Test
    void shouldPreemptForAShorterArrivalOnTheOneMachine() {
        // 1 GPU: a (10 s) at 0, b (2 s) at 3: SRPT ends b at 5 and a at 12; JCTs 2 and 12
        Trace trace = Traces.of("a,0,1,10", "b,3,1,2");

        // completions by trace order: a at 12, b at 5
        assertThat(AverageJctBound.OneMachine.run(trace.jobs(), new double[] {10, 2}, 1.0, true).completion())
                .containsExactly(12.0, 5.0);
        assertThat(AverageJctBound.averageJct(trace, 1, 1.0)).isCloseTo(7.0, within(1e-9));
        // preemptive SPT is SRPT here; a's work in 0-3 and 5-12 has mean (4.5 + 59.5) / 10 = 6.4: (11.4 + 5 - 3) / 2
        assertThat(AverageJctBound.meanBusyTimeAverageJct(trace, 1, one(trace))).isCloseTo(6.7, within(1e-9));
    }

    @Test
    void shouldSeeThatJobsArrivingTogetherWaitWhenTheirGpusExceedTheCluster() {
        // 2 GPUs, one-GPU jobs of 1, 1 and 2 s at 0: at best two run, the third ends at 2 or 3, mean 5 / 3. Without
        // the per-job limit the pool does them one after another twice as fast: order statistics 4 / 3, mean busy
        // time (0.75 + 1.25 + 2.5) / 3 = 1.5. With it, the least sum of mean busy times is 3, plus half the
        // durations: 5 / 3, which the subgradient steps approach from below (1.58).
        Trace trace = Traces.of("a,0,1,1", "b,0,1,1", "c,0,1,2");

        assertThat(AverageJctBound.orderStatisticsAverageJct(trace, 2, one(trace))).isCloseTo(4.0 / 3, within(1e-9));
        assertThat(AverageJctBound.meanBusyTimeAverageJct(trace, 2, one(trace))).isCloseTo(1.5, within(1e-9));
        assertThat(CappedRelaxation.averageJct(trace.jobs(), 2, one(trace), 5.0 / 3)).isBetween(1.55, 5.0 / 3 + 1e-9);
        assertThat(AverageJctBound.averageJct(trace, 2, 1.0)).isBetween(1.55, 5.0 / 3 + 1e-9);
    }

    @Test
    void shouldRejectAJobLargerThanTheClusterAndACapacityFactorBelowOne() {
        Trace trace = Traces.of("a,0,4,10");

        assertThatThrownBy(() -> AverageJctBound.averageJct(trace, 2, 1.0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("4 GPUs");
        assertThatThrownBy(() -> AverageJctBound.averageJct(trace, 8, 0.5))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldLieBetweenTheFloorAndTheIdealScheduleOnRandomInstances() {
        Random random = new Random(15);
        int aboveFloor = 0;
        int aboveOrderStatistics = 0;
        for (int round = 0; round < 150; round++) {
            int gpus = 1 + random.nextInt(8);
            Trace trace = random(random, 5 + random.nextInt(20), gpus, 50, 200);
            double floor = trace.meanDurationSeconds();
            double bound = AverageJctBound.averageJct(trace, gpus, 1.0);
            double ideal = IdealSchedule.averageJct(trace, gpus);

            assertThat(bound).as("round %d", round).isGreaterThanOrEqualTo(floor - 1e-9)
                    .isGreaterThanOrEqualTo(srptAverageJct(trace, gpus, one(trace)) - 1e-9)
                    .isGreaterThanOrEqualTo(AverageJctBound.meanBusyTimeAverageJct(trace, gpus, one(trace)) - 1e-9)
                    .isLessThanOrEqualTo(ideal + 1e-9);
            if (bound > floor + 1e-6) {
                aboveFloor++;
            }
            if (bound > AverageJctBound.orderStatisticsAverageJct(trace, gpus, one(trace)) + 1e-6) {
                aboveOrderStatistics++;
            }
        }
        assertThat(aboveFloor).as("instances where the bound says more than the floor").isGreaterThan(50);
        assertThat(aboveOrderStatistics).as("instances where the mean busy times say more").isGreaterThan(10);
    }

    @Test
    void shouldNeverExceedTheBestScheduleFoundByExhaustiveSearch() {
        Random random = new Random(1_500);
        int strictlyBelowIdeal = 0;
        for (int round = 0; round < 200; round++) {
            int gpus = 1 + random.nextInt(3);
            Trace trace = random(random, 2 + random.nextInt(4), gpus, 4, 3);
            double best = BestSchedule.averageJct(trace, gpus);
            double bound = AverageJctBound.averageJct(trace, gpus, 1.0);
            double ideal = IdealSchedule.averageJct(trace, gpus);

            assertThat(bound).as("round %d: %s", round, trace.jobs()).isLessThanOrEqualTo(best + 1e-9);
            assertThat(best).as("round %d: %s", round, trace.jobs()).isLessThanOrEqualTo(ideal + 1e-9);
            if (best < ideal - 1e-9) {
                strictlyBelowIdeal++;
            }
        }
        // the ideal schedule is greedy, not optimal: the search must find better schedules now and then
        assertThat(strictlyBelowIdeal).isGreaterThan(0);
    }

    /** Every unit of work takes one GPU-second: no packing gain. */
    private static double[] one(Trace trace) {
        return AverageJctBound.uniform(trace, 1);
    }

    /** {@code n} jobs of 1 to {@code maxGpus} GPUs and 1 to {@code maxDuration} s, 0 to {@code maxGap} s apart. */
    private static Trace random(Random random, int n, int maxGpus, int maxGap, int maxDuration) {
        List<String> rows = new ArrayList<>();
        long t = 0;
        for (int i = 0; i < n; i++) {
            t += random.nextInt(maxGap + 1);
            rows.add("j" + i + "," + t + "," + (1 + random.nextInt(maxGpus)) + "," + (1 + random.nextInt(maxDuration)));
        }
        return Traces.of(rows.toArray(String[]::new));
    }

    /**
     * The best schedule in whole seconds, by exhaustive search: each second, any set of released unfinished jobs whose
     * gangs fit together runs for that second at full speed. Every such schedule is one the cluster could run, so no
     * lower bound may exceed it.
     */
    private static final class BestSchedule {
        private final Trace trace;
        private final int gpus;
        private final Map<String, Long> memo = new HashMap<>();

        private final long horizon;

        private BestSchedule(Trace trace, int gpus) {
            this.trace = trace;
            this.gpus = gpus;
            this.horizon = trace.lastSubmitSeconds() + trace.jobs().stream().mapToLong(j -> j.durationSeconds()).sum();
        }

        static double averageJct(Trace trace, int gpus) {
            long[] remaining = trace.jobs().stream().mapToLong(j -> j.durationSeconds()).toArray();
            long sum = new BestSchedule(trace, gpus).best(0, remaining);
            long submits = trace.jobs().stream().mapToLong(j -> j.submitSeconds()).sum();
            return (double) (sum - submits) / trace.size();
        }

        /** The least sum of completion times of the unfinished jobs from second {@code t} on. */
        private long best(long t, long[] remaining) {
            if (Arrays.stream(remaining).allMatch(r -> r == 0)) {
                return 0;
            }
            if (t > horizon) {
                return Long.MAX_VALUE / 4; // idled for longer than the whole trace's work: never the best
            }
            String key = t + Arrays.toString(remaining);
            Long known = memo.get(key);
            if (known != null) {
                return known;
            }
            int n = remaining.length;
            long best = Long.MAX_VALUE;
            for (int set = 0; set < 1 << n; set++) {
                int used = 0;
                boolean ok = true;
                for (int i = 0; i < n && ok; i++) {
                    if ((set >> i & 1) == 1) {
                        used += trace.jobs().get(i).numGpus();
                        ok = remaining[i] > 0 && trace.jobs().get(i).submitSeconds() <= t && used <= gpus;
                    }
                }
                if (!ok) {
                    continue;
                }
                long[] after = remaining.clone();
                long ended = 0;
                for (int i = 0; i < n; i++) {
                    if ((set >> i & 1) == 1 && --after[i] == 0) {
                        ended += t + 1;
                    }
                }
                best = Math.min(best, ended + best(t + 1, after));
            }
            memo.put(key, best);
            return best;
        }
    }

    /** The average JCT of SRPT alone on the pool (without the jobs' own durations). */
    private static double srptAverageJct(Trace trace, int gpus, double[] gpuSecondsPerWork) {
        double sum = 0;
        for (double c : AverageJctBound.OneMachine.run(trace.jobs(),
                AverageJctBound.sizes(trace, gpuSecondsPerWork), gpus, true).completion()) {
            sum += c;
        }
        return AverageJctBound.average(trace, sum);
    }
}
