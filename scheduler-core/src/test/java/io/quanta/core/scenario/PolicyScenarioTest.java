package io.quanta.core.scenario;

import static io.quanta.core.testing.Fixtures.aCell;
import static io.quanta.core.testing.Fixtures.aJob;
import static io.quanta.core.testing.Fixtures.aNode;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.core.config.PolicyConfig;
import io.quanta.core.decision.Decisions;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.InterferenceMemory;
import io.quanta.core.model.ServiceDistribution;
import io.quanta.core.policy.PolicyRegistry;
import io.quanta.core.testing.DecisionValidator;
import io.quanta.core.testing.JobFixture;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** One rule per row: a few nodes and jobs in, the exact decisions out, and a fragment of the reason naming the rule. */
class PolicyScenarioTest {

    /** The settings of the {@link #tenantCell} rows: Gittins from 4 completed jobs, thresholds 350 and 2,000. */
    private static final String TENANT_RANKING = "policy=quanta gittins.min-samples=4 tiresias.thresholds=350,2000 "
            + "quanta.threshold-quantiles=off";

    record Scenario(String name, Map<String, String> config, ClusterSnapshot snapshot, List<String> expected,
                    String reasonFragment) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Scenario row(String name, String params, ClusterSnapshot snapshot, List<String> expected, String reason) {
        Map<String, String> config = new HashMap<>();
        for (String kv : params.split(" ")) {
            String[] p = kv.split("=", 2);
            config.put(p[0], p[1]);
        }
        return new Scenario(name, config, snapshot, expected, reason);
    }

    static Stream<Scenario> scenarios() {
        return Stream.of(
                row("demotion at a threshold", "policy=tiresias-las",
                        aCell().nodes(aNode("n1").gpus(4)).jobs(
                                aJob("a").runningOn("n1", 0).attained(3250).executed(3250)).build(),
                        List.of("CHANGE_QUEUE a 0->1"), "attained 3250 GPU-s >= threshold 3250"),
                row("no demotion just below the threshold", "policy=tiresias-las",
                        aCell().nodes(aNode("n1").gpus(4)).jobs(
                                aJob("a").runningOn("n1", 0).attained(3249.5).executed(3249.5)).build(),
                        List.of(), ""),
                row("demotion straight to the matching queue", "policy=tiresias-las",
                        aCell().nodes(aNode("n1").gpus(4)).jobs(
                                aJob("a").runningOn("n1", 0, 1, 2, 3).attained(7300).executed(1825)).build(),
                        List.of("CHANGE_QUEUE a 0->2"), "demoted from queue 0 to queue 2"),
                row("preemption of a lower queue", "policy=tiresias-las",
                        aCell().nodes(aNode("n1").gpus(4)).jobs(
                                aJob("a").seq(1).runningOn("n1", 0, 1, 2, 3).attained(4000).level(1).executed(500),
                                aJob("b").seq(2).gpus(4)).build(),
                        List.of("SUSPEND a"), "queue 1 job a preempted by queue 0 job b (attained 4000 GPU-s"),
                row("no preemption by a peer of the same queue", "policy=tiresias-las",
                        aCell().nodes(aNode("n1").gpus(4)).jobs(
                                aJob("a").seq(1).runningOn("n1", 0, 1, 2, 3).attained(400).executed(100),
                                aJob("b").seq(2).gpus(4).waiting(5000)).build(),
                        List.of(), ""),
                row("no extra victim while a victim is suspending; free GPU to a lower job", "policy=tiresias-las",
                        aCell().nodes(aNode("n1").gpus(4), aNode("n2").gpus(4)).jobs(
                                aJob("a").seq(1).suspending().on("n1", 0, 1, 2, 3).attained(4000).level(1),
                                aJob("c").seq(2).runningOn("n2", 0, 1, 2).attained(9000).level(2).executed(50),
                                aJob("b").seq(3).gpus(4),
                                aJob("d").seq(4).gpus(1).attained(4000).level(1)).build(),
                        List.of("START d n2/3"), "start job d (queue 1"),
                row("free GPUs earmarked for a preempting job are not handed to a lower queue",
                        "policy=tiresias-las",
                        aCell().nodes(aNode("n1").gpus(4)).jobs(
                                aJob("a").seq(1).runningOn("n1", 0, 1).attained(9000).level(2).executed(50),
                                aJob("b").seq(2).gpus(4),
                                aJob("c").seq(3).gpus(1).attained(4000).level(1)).build(),
                        List.of("SUSPEND a"), "queue 2 job a preempted by queue 0 job b"),
                row("promotion by the starvation knob", "policy=tiresias-las tiresias.starvation-knob=2",
                        aCell().nodes(aNode("n1").gpus(1)).jobs(
                                aJob("x").seq(1).runningOn("n1", 0).executed(10),
                                aJob("a").seq(2).attained(9000).level(2).executed(400).waiting(800)).build(),
                        List.of("CHANGE_QUEUE a 2->0"), "starvation knob (waited 800 s >= 2 x last run 400 s)"),
                row("no promotion before knob x last run", "policy=tiresias-las tiresias.starvation-knob=2",
                        aCell().nodes(aNode("n1").gpus(1)).jobs(
                                aJob("x").seq(1).runningOn("n1", 0).executed(10),
                                aJob("a").seq(2).attained(9000).level(2).executed(400).waiting(799)).build(),
                        List.of(), ""),
                row("no promotion when the knob is off (default)", "policy=tiresias-las",
                        aCell().nodes(aNode("n1").gpus(1)).jobs(
                                aJob("x").seq(1).runningOn("n1", 0).executed(10),
                                aJob("a").seq(2).attained(9000).level(2).executed(400).waiting(1e6)).build(),
                        List.of(), ""),
                row("Gittins: higher index first inside a queue", "policy=tiresias-gittins gittins.min-samples=4 "
                                + "tiresias.thresholds=350,2000",
                        gittinsCell(), List.of("START p n1/0"), "Gittins index 0.00500000"),
                row("LAS on the same cell: least attained first", "policy=tiresias-las tiresias.thresholds=350,2000",
                        gittinsCell(), List.of("START q n1/0"), "queue 0, attained 0 GPU-s"),
                row("skew-aware: a high-skew job waits for a consolidated placement", "policy=tiresias-las",
                        halfFullCell(0.9, 10), List.of(), ""),
                row("skew-aware: a low-skew job takes free GPUs anywhere", "policy=tiresias-las",
                        halfFullCell(0.1, 10), List.of("START h n1/2,n1/3,n2/2,n2/3"), "4 GPUs on 2 nodes"),
                row("relaxation after the timeout", "policy=tiresias-las placement.relaxation-timeout-s=300",
                        halfFullCell(0.9, 300), List.of("START h n1/2,n1/3,n2/2,n2/3"), "relaxed"),
                row("consolidated: fewest servers, then one rack", "policy=fifo placement.strategy=consolidated",
                        aCell().nodes(aNode("a1").rack("r1").gpus(4), aNode("a2").rack("r1").gpus(4),
                                aNode("b1").rack("r2").gpus(4), aNode("b2").rack("r2").gpus(4)).jobs(
                                aJob("x").seq(1).runningOn("a2", 0, 1).executed(10),
                                aJob("big").seq(2).gpus(8)).build(),
                        List.of("START big b1/0,b1/1,b1/2,b1/3,b2/0,b2/1,b2/2,b2/3"), "8 GPUs on 2 nodes"),
                row("best fit on one node", "policy=fifo",
                        aCell().nodes(aNode("n1").gpus(4), aNode("n2").gpus(4)).jobs(
                                aJob("x").seq(1).runningOn("n2", 0, 1).executed(10),
                                aJob("two").seq(2).gpus(2)).build(),
                        List.of("START two n2/2,n2/3"), "2 GPUs on 1 node"),
                row("fifo: head-of-line blocking", "policy=fifo",
                        aCell().nodes(aNode("n1").gpus(4)).jobs(
                                aJob("x").seq(1).runningOn("n1", 0, 1).executed(10),
                                aJob("head").seq(2).gpus(4), aJob("small").seq(3).gpus(1)).build(),
                        List.of(), ""),
                row("tiresias-las backfills behind a blocked job", "policy=tiresias-las",
                        aCell().nodes(aNode("n1").gpus(4)).jobs(
                                aJob("x").seq(1).runningOn("n1", 0, 1).executed(10),
                                aJob("head").seq(2).gpus(4), aJob("small").seq(3).gpus(1)).build(),
                        List.of("START small n1/2"), "start job small"),
                row("srtf-oracle preempts a job with more remaining GPU-time", "policy=srtf-oracle",
                        aCell().nodes(aNode("n1").gpus(1)).jobs(
                                aJob("a").seq(1).runningOn("n1", 0).duration(1000).attained(100).executed(100),
                                aJob("b").seq(2).duration(100)).build(),
                        List.of("SUSPEND a"), "job a (remaining 900 GPU-s) preempted by job b (remaining 100 GPU-s)"),
                row("gandiva: pack when memory fits", "policy=gandiva",
                        packCell(8000, InterferenceMemory.empty(16)), List.of("PACK b n1/0 with a"),
                        "over-subscribed, memory 14000 <= 16000 MiB"),
                row("gandiva: no pack when memory does not fit", "policy=gandiva",
                        packCell(12000, InterferenceMemory.empty(16)), List.of(), ""),
                row("gandiva: no pack of a remembered bad pair", "policy=gandiva",
                        packCell(8000, InterferenceMemory.empty(16).record("resnet50", "lstm")), List.of(), ""),
                row("gandiva: time slice when over-subscribed", "policy=gandiva",
                        aCell().nodes(aNode("n1").gpus(1)).jobs(
                                aJob("a").seq(1).runningOn("n1", 0).executed(60),
                                aJob("b").seq(2).waiting(30)).build(),
                        List.of("SUSPEND a"), "time slice of job a ended (ran 60 s >= quantum 60 s)"),
                row("gandiva: pack kept when normalised throughput rose", "policy=gandiva",
                        packedCell(7, 7, false), List.of("CONFIRM_PLACEMENT a", "CONFIRM_PLACEMENT b"),
                        "pack a+b kept: normalised throughput a 0.7 + b 0.7 = 1.4 >= 1"),
                row("gandiva: pack reverted on lower throughput (suspend, remember the pair)", "policy=gandiva",
                        packedCell(4, 4, false),
                        List.of("RECORD_INTERFERENCE b a", "CONFIRM_PLACEMENT a", "SUSPEND b"),
                        "pack a+b reverted: normalised throughput a 0.4 + b 0.4 = 0.8 < 1"),
                row("quanta: pack reverted by migrating to a free GPU", "policy=quanta",
                        packedCell(4, 4, true),
                        List.of("RECORD_INTERFERENCE b a", "CONFIRM_PLACEMENT a", "MIGRATE b n1/0->n2/0"),
                        "job b moved to 1 GPU on 1 node"),
                packKept("gandiva keeps a pack that only matches running one job at a time", "gandiva", 5,
                        "a 0.5 + b 0.5 = 1 >= 1"),
                packMovedApart("quanta reverts a pack that only matches running one job at a time", "quanta", 5,
                        "a 0.5 + b 0.5 = 1 < 1.1"),
                packKept("quanta keeps a pack that gains (two language models at 0.81)", "quanta", 8.1,
                        "a 0.81 + b 0.81 = 1.62 >= 1.1"),
                row("quanta: with make-room off a low-skew gang waits for a consolidated placement",
                        "policy=quanta quanta.make-room=off", halfFullCell(0.1, 10), List.of(), ""),
                row("quanta: with make-room (default) room is made for it on one server",
                        "policy=quanta", halfFullCell(0.1, 10), List.of("MIGRATE x n1/0,n1/1->n2/2,n2/3"),
                        "to make room for gang h"),
                row("quanta: a gang of a model without skew takes free GPUs anywhere", "policy=quanta",
                        halfFullCell(0.0, 10), List.of("START h n1/2,n1/3,n2/2,n2/3"), "4 GPUs on 2 nodes"),
                row("quanta: still waiting for consolidation after 3,599 s (make-room off)",
                        "policy=quanta quanta.make-room=off", halfFullCell(0.9, 3599), List.of(), ""),
                row("quanta: relaxed after an hour", "policy=quanta",
                        halfFullCell(0.9, 3600), List.of("START h n1/2,n1/3,n2/2,n2/3"), "relaxed"),
                row("quanta: the starvation knob is on by default", "policy=quanta",
                        knobCell(1600),
                        List.of("CHANGE_QUEUE a 2->0"), "starvation knob (waited 1600 s >= 4 x last run 400 s)"),
                row("quanta: with the knob on the whole run, a job that ran 9,000 s does not come back after 1,600 s",
                        "policy=quanta quanta.knob-basis=whole-run",
                        knobCell(1600),
                        List.of(), ""),
                row("quanta: ... but after waiting 4 x 9,000 s",
                        "policy=quanta quanta.knob-basis=whole-run",
                        knobCell(36_000),
                        List.of("CHANGE_QUEUE a 2->0"), "starvation knob (waited 36000 s >= 4 x run 9000 s)"),
                row("quanta: with a least wait for the knob, a job whose last run was 400 s waits past 1,600 s",
                        "policy=quanta quanta.knob-min-wait-s=3600", knobCell(1600), List.of(), ""),
                row("quanta: ... and is promoted once it waited the least wait",
                        "policy=quanta quanta.knob-min-wait-s=3600", knobCell(3600),
                        List.of("CHANGE_QUEUE a 2->0"), "starvation knob (waited 3600 s >= the least wait 3600 s)"),
                row("quanta: with promoted-preempts=any a promoted job preempts a lower-queue job behind it",
                        "policy=quanta quanta.preempt-by-index=off quanta.promoted-preempts=any quanta.demotion-grace=0",
                        promotedCell(3300),
                        List.of("SUSPEND v"), "queue 1 job v preempted by queue 0 job a"),
                row("quanta: a promoted job does not preempt one that attained less (promoted-preempts=ahead, default)",
                        "policy=quanta quanta.preempt-by-index=off",
                        promotedCell(3300), List.of(), ""),
                row("quanta: ... but with a margin of 1 preempts one that attained more",
                        "policy=quanta quanta.preempt-by-index=off quanta.promoted-preempts=ahead "
                                + "quanta.promoted-preempts-margin=1",
                        promotedCell(6000), List.of("SUSPEND v"), "promoted job attained 5000 < 6000 GPU-s"),
                row("quanta: with the default margin of 2 a promoted job of 5,000 GPU-s does not preempt one of 6,000",
                        "policy=quanta quanta.preempt-by-index=off", promotedCell(6000), List.of(), ""),
                row("quanta: ... but preempts one of 10,100 (margin 2, default)",
                        "policy=quanta quanta.preempt-by-index=off", promotedCell(10_100),
                        List.of("CHANGE_QUEUE v 1->2", "SUSPEND v"),
                        "promoted job attained 2 x 5000 < 10100 GPU-s"),
                row("quanta: with preemption-serves=anyone a job behind a promoted one preempts for the GPU the "
                                + "promoted job may not take",
                        "policy=quanta quanta.preempt-by-index=off quanta.preemption-serves=anyone", servesCell(1),
                        List.of("SUSPEND v"), "queue 2 job v preempted by queue 1 job b"),
                row("quanta: with preemption-serves=preemptor (default) it does not: the promoted job ahead would "
                                + "take the GPU",
                        "policy=quanta quanta.preempt-by-index=off", servesCell(1),
                        List.of(), ""),
                row("quanta: ... but it does when the job ahead could not use the GPU it frees (2 GPUs, 1 reachable)",
                        "policy=quanta quanta.preempt-by-index=off quanta.preemption-serves=preemptor", servesCell(2),
                        List.of("SUSPEND v"), "queue 2 job v preempted by queue 1 job b"),
                row("quanta: with a margin of 1.4 a promoted job of 5,000 GPU-s does not preempt one of 6,000",
                        "policy=quanta quanta.preempt-by-index=off quanta.promoted-preempts-margin=1.4",
                        promotedCell(6000), List.of(), ""),
                row("quanta: ... but preempts one of 7,100",
                        "policy=quanta quanta.preempt-by-index=off quanta.promoted-preempts-margin=1.4",
                        promotedCell(7100), List.of("SUSPEND v"), "promoted job attained 1.4 x 5000 < 7100 GPU-s"),
                row("quanta: without a backoff a job preempted twice before is preempted again after 1,000 s",
                        "policy=quanta quanta.preempt-by-index=off", backoffCell(1000),
                        List.of("SUSPEND v"), "queue 1 job v preempted by queue 0 job w"),
                row("quanta: with a 600 s backoff it is protected until it ran 2 x 600 s",
                        "policy=quanta quanta.preempt-by-index=off quanta.preemption-backoff-s=600",
                        backoffCell(1000), List.of(), ""),
                row("quanta: ... and preempted once it has",
                        "policy=quanta quanta.preempt-by-index=off quanta.preemption-backoff-s=600", backoffCell(1200),
                        List.of("SUSPEND v"), "preempted 2 times before, ran 1200 s >= 1200 s"),
                row("quanta: with the demotion grace off a new job preempts a job just demoted into queue 1",
                        "policy=quanta quanta.preempt-by-index=off quanta.demotion-grace=0", graceCell(1, 3300),
                        List.of("SUSPEND v"), "queue 1 job v preempted by queue 0 job w"),
                row("quanta: with the default grace of 0.1 the job keeps its GPU until 10% past the threshold",
                        "policy=quanta quanta.preempt-by-index=off", graceCell(1, 3574), List.of(), ""),
                row("quanta: ... and is preempted once it is past that (grace 0.1, default)",
                        "policy=quanta quanta.preempt-by-index=off", graceCell(1, 3575),
                        List.of("SUSPEND v"), "past its demotion grace (3575 >= 3575 GPU-s)"),
                row("quanta: with a demotion grace of 0.25 the job keeps its GPU until 25% past the threshold",
                        "policy=quanta quanta.preempt-by-index=off quanta.demotion-grace=0.25", graceCell(1, 4062),
                        List.of(), ""),
                row("quanta: ... and is preempted once it is",
                        "policy=quanta quanta.preempt-by-index=off quanta.demotion-grace=0.25", graceCell(1, 4063),
                        List.of("SUSPEND v"), "past its demotion grace (4063 >= 4062.5 GPU-s)"),
                row("quanta: ... while a job two queues above it preempts it at once",
                        "policy=quanta quanta.preempt-by-index=off quanta.demotion-grace=0.25", graceCell(2, 7300),
                        List.of("SUSPEND v"), "queue 2 job v preempted by queue 0 job w (attained 7300 GPU-s >= threshold 7200)"),
                row("quanta: with pack-victims=with-guest a pack is preempted at its guest's place in victim order",
                        "policy=quanta quanta.preempt-by-index=off quanta.pack-victims=with-guest", packVictimCell(),
                        List.of("SUSPEND g", "SUSPEND h"), "queue 2 job g preempted by queue 0 job w"),
                row("quanta: with pack-victims=at-host (default) the job that arrived between them yields first",
                        "policy=quanta quanta.preempt-by-index=off quanta.pack-victims=at-host", packVictimCell(),
                        List.of("SUSPEND s"), "queue 2 job s preempted by queue 0 job w"),
                row("quanta: ... and the pack yields at its host's place once nobody ranked below the host is left",
                        "policy=quanta quanta.preempt-by-index=off quanta.pack-victims=at-host",
                        packVictimCell(false), List.of("SUSPEND h", "SUSPEND g"),
                        "queue 2 job h preempted by queue 0 job w"),
                row("quanta: a 2-GPU job takes the free GPUs a long-waiting gang needs (reserve-after-s off, default)",
                        "policy=quanta", reserveCell(3600), List.of("START s n1/2,n1/3"), "start job s"),
                row("quanta: with reserve-after-s=3600 the gang that waited the hour holds them back",
                        "policy=quanta quanta.reserve-after-s=3600", reserveCell(3600), List.of(), ""),
                row("quanta: ... but not before the hour",
                        "policy=quanta quanta.reserve-after-s=3600", reserveCell(3599), List.of("START s n1/2,n1/3"),
                        "start job s"),
                row("quanta: a new job preempts a lower-queue job it could share a GPU with (pack-first off, default)",
                        "policy=quanta quanta.preempt-by-index=off", packOrPreemptCell(),
                        List.of("SUSPEND v"), "queue 1 job v preempted by queue 0 job w"),
                row("quanta: with pack-first on it shares the GPU instead",
                        "policy=quanta quanta.preempt-by-index=off quanta.pack-first=on", packOrPreemptCell(),
                        List.of("PACK w n1/0 with v"), "over-subscribed, memory 14000 <= 16000 MiB"),
                row("quanta: ... and still preempts when the pair is remembered as interfering",
                        "policy=quanta quanta.preempt-by-index=off quanta.pack-first=on",
                        packOrPreemptCell(InterferenceMemory.empty(16).record("resnet50", "lstm")),
                        List.of("SUSPEND v"), "queue 1 job v preempted by queue 0 job w"),
                row("quanta: a job demoted under a lower learned threshold stays in its queue (relevel off, default)",
                        "policy=quanta gittins.min-samples=4 quanta.threshold-quantiles=0.5,0.75", relevelCell(),
                        List.of(), ""),
                row("quanta: with relevel on it moves up once the threshold rose above its attained service",
                        "policy=quanta gittins.min-samples=4 quanta.threshold-quantiles=0.5,0.75 quanta.relevel=on",
                        relevelCell(), List.of("CHANGE_QUEUE b 2->0"),
                        "moved up from queue 2 to queue 0 (attained 150"),
                row("quanta: a gang that ran long is still waiting for consolidation past the hour (patience 0.5, default;"
                                + " make-room off)",
                        "policy=quanta quanta.make-room=off", ranBeforeCell(10_000, 4999),
                        List.of(), ""),
                row("quanta: ... and relaxed once it waited half its run (patience 0.5)",
                        "policy=quanta quanta.consolidation-patience=0.5", ranBeforeCell(10_000, 5000),
                        List.of("START h n1/2,n1/3,n2/2,n2/3"), "relaxed"),
                row("quanta: without patience the same gang relaxed after the hour",
                        "policy=quanta quanta.consolidation-patience=0", ranBeforeCell(10_000, 3600),
                        List.of("START h n1/2,n1/3,n2/2,n2/3"), "relaxed"),
                row("quanta: a new job does not preempt one the cell's jobs say ends soon (preempt-by-index, default)",
                        "policy=quanta", indexCell(3_849), List.of(), ""),
                row("quanta: ... but preempts one the cell's jobs say runs long (preempt-by-index)",
                        "policy=quanta quanta.preempt-by-index=on quanta.demotion-grace=0", indexCell(100_000),
                        List.of("SUSPEND v"), "queue 1 job v preempted by queue 0 job w"),
                row("quanta: queue levels alone preempt the job that ends soon (preempt-by-index off)",
                        "policy=quanta quanta.preempt-by-index=off quanta.demotion-grace=0", indexCell(3_849),
                        List.of("SUSPEND v"), "queue 1 job v preempted by queue 0 job w"),
                row("quanta: a new job reaches past a job that ends soon to an older, longer one (index-gate=each, "
                                + "default)", "policy=quanta quanta.threshold-quantiles=off", pastCell(),
                        List.of("SUSPEND old"), "queue 1 job old preempted by queue 0 job w"),
                row("quanta: with index-gate=prefix it stops at the job that ends soon",
                        "policy=quanta quanta.threshold-quantiles=off quanta.index-gate=prefix", pastCell(),
                        List.of(), ""),
                row("quanta: a new job whose tenant's jobs all ran past the first threshold has index 0 there and "
                                + "preempts nobody by the queues' index (gate-index=threshold, default), not even a "
                                + "job its own tenant's jobs say runs 47 times longer",
                        TENANT_RANKING, lookAheadCell(), List.of(), ""),
                row("quanta: with gate-index=best the Gittins index over every look-ahead lets it preempt that job",
                        TENANT_RANKING + " quanta.gate-index=best", lookAheadCell(), List.of("SUSPEND v"),
                        "Gittins index (best look-ahead) 5.00e-05 > 1.06e-06"),
                row("quanta: with gate-index=best-when-zero too: its queues' index is 0, so it and v are compared by "
                                + "the index over every look-ahead",
                        TENANT_RANKING + " quanta.gate-index=best-when-zero", lookAheadCell(), List.of("SUSPEND v"),
                        "Gittins index (best look-ahead) 5.00e-05 > 1.06e-06"),
                row("quanta: the same new job preempts nobody though a third of the cell's jobs end within the "
                                + "threshold: its tenant's jobs alone decide (tenant-prior-jobs=0, default)",
                        TENANT_RANKING, pooledCell(1), List.of(), ""),
                row("quanta: with tenant-prior-jobs=1 its tenant's estimate holds one job spread as the cell's, "
                                + "a third of which ends within the threshold, so its index is above 0 and beats v's",
                        TENANT_RANKING + " quanta.tenant-prior-jobs=1", pooledCell(1), List.of("SUSPEND v"),
                        "Gittins index 0.000109 > 1.06e-06"),
                row("quanta: a job started by the pooled estimate's index says where its index came from",
                        TENANT_RANKING + " quanta.tenant-prior-jobs=1", pooledCell(2), List.of("START w n1/1"),
                        "Gittins index 0.000108696 (from tenant long's recent jobs, pooled with 1 job spread as the "
                                + "cell's)"),
                row("quanta: ... but pooling invents no end the cell's jobs do not have: where none of them ends "
                                + "within the threshold it still preempts nobody",
                        TENANT_RANKING + " quanta.tenant-prior-jobs=1", lookAheadCell(), List.of(), ""),
                row("quanta: best-when-zero keeps the queues' index for a job whose queues' index is above 0",
                        "policy=quanta quanta.gate-index=best-when-zero", indexCell(3_849), List.of(), ""),
                row("quanta: ... where best compares the index over every look-ahead, 1 / 400 against 1 / 549",
                        "policy=quanta quanta.gate-index=best quanta.demotion-grace=0", indexCell(3_849),
                        List.of("SUSPEND v"), "Gittins index (best look-ahead) 0.00250 > 0.00182"),
                row("quanta: Gittins order inside a queue by default", "policy=quanta gittins.min-samples=4 "
                                + "tiresias.thresholds=350,2000 quanta.threshold-quantiles=off",
                        gittinsCell(), List.of("START p n1/0"), "Gittins index 0.00500000"),
                row("quanta: the job of the last queue that arrived first starts (last-queue=fifo, default)",
                        "policy=quanta gittins.min-samples=4 tiresias.thresholds=350 quanta.threshold-quantiles=off",
                        lastQueueCell(), List.of("START q n1/0"), "start job q"),
                row("quanta: with last-queue=gittins the last queue is ordered by index, the longest job last",
                        "policy=quanta gittins.min-samples=4 tiresias.thresholds=350 quanta.threshold-quantiles=off "
                                + "quanta.last-queue=gittins",
                        lastQueueCell(), List.of("START p n1/0"), "Gittins index"),
                row("quanta: the job of the tenant whose jobs end soon starts first (index-by-tenant, default)",
                        TENANT_RANKING, tenantCell(8), List.of("START S n1/0"), "from tenant quick's recent jobs"),
                row("quanta: ... but not from fewer than 8 of a tenant's jobs",
                        TENANT_RANKING + " quanta.index-by-tenant=on", tenantCell(7), List.of("START L n1/0"),
                        "start job L"),
                row("quanta: a job that outlived its tenant's recent jobs is ranked by the cell's index "
                                + "(index-by-tenant)",
                        "policy=quanta gittins.min-samples=4 tiresias.thresholds=350 quanta.threshold-quantiles=off",
                        outlivedCell(), List.of("START S n1/0"), "start job S"),
                row("quanta: with index-by-tenant=off the cell's index cannot tell them apart, arrival decides",
                        TENANT_RANKING + " quanta.index-by-tenant=off", tenantCell(8), List.of("START L n1/0"),
                        "start job L"),
                row("quanta: with index=declared the job that declares fewer GPU-seconds starts first",
                        TENANT_RANKING + " quanta.index-by-tenant=off quanta.index=declared", declaredCell(),
                        List.of("START S n1/0"), "from its declared duration: 100 GPU-s left"),
                row("quanta: declarations are not read by default (index=learned), arrival decides",
                        TENANT_RANKING + " quanta.index-by-tenant=off", declaredCell(), List.of("START L n1/0"),
                        "start job L"),
                row("quanta: a job past its declaration is ranked by the learned index (index=declared)",
                        TENANT_RANKING + " quanta.index=declared", overranCell(), List.of("START p n1/0"),
                        "Gittins index 0.00500000"),
                row("quanta: with index=declared a new job does not preempt one that declares it ends sooner",
                        "policy=quanta quanta.index=declared", declaredIndexCell(3_400, 1_000), List.of(), ""),
                row("quanta: ... but preempts one that declares it ends later (index=declared)",
                        "policy=quanta quanta.index=declared quanta.demotion-grace=0", declaredIndexCell(3_400, 50),
                        List.of("SUSPEND v"),
                        "Gittins index 0.0200 > 0.0100"),
                row("quanta: with make-room=on two small jobs move off a server for a gang that waits for one",
                        "policy=quanta placement.packing=off quanta.make-room=on", roomCell(false),
                        List.of("MIGRATE a n1/0->n2/2", "MIGRATE b n1/1->n2/3"), "to make room for gang g"),
                row("quanta: with make-room off the gang waits with 4 GPUs free",
                        "policy=quanta placement.packing=off quanta.make-room=off", roomCell(false), List.of(), ""),
                row("quanta: make-room is on by default",
                        "policy=quanta placement.packing=off", roomCell(false),
                        List.of("MIGRATE a n1/0->n2/2", "MIGRATE b n1/1->n2/3"), "to make room for gang g"),
                row("quanta: make-room stays within migration.max-per-pass",
                        "policy=quanta placement.packing=off quanta.make-room=on migration.max-per-pass=1",
                        roomCell(false), List.of(), ""),
                row("quanta: make-room moves jobs that ran move-min-run-s since they last started (100 s of 100)",
                        "policy=quanta placement.packing=off quanta.move-min-run-s=100", roomCell(false),
                        List.of("MIGRATE a n1/0->n2/2", "MIGRATE b n1/1->n2/3"), "to make room for gang g"),
                row("quanta: ... and none that ran less (100 s of 101): the gang waits",
                        "policy=quanta placement.packing=off quanta.move-min-run-s=101", roomCell(false),
                        List.of(), ""),
                row("quanta: make-room moves nothing with migration off",
                        "policy=quanta placement.packing=off quanta.make-room=on migration.enabled=off",
                        roomCell(false), List.of(), ""),
                row("quanta: make-room moves nothing when the GPUs free elsewhere cannot take the movers",
                        "policy=quanta placement.packing=off quanta.make-room=on", fullElsewhereCell(),
                        List.of(), ""),
                row("quanta: make-room empties the server that needs the fewest moves",
                        "policy=quanta placement.packing=off quanta.make-room=on", roomCell(true),
                        List.of("MIGRATE c n2/0,n2/1->n1/2,n1/3"), "move job c off n2"),
                row("quanta: queue thresholds learned from the cell's completed jobs demote a job past their median",
                        "policy=quanta gittins.min-samples=4 quanta.threshold-quantiles=0.5,0.75", learnedCell(),
                        List.of("CHANGE_QUEUE a 0->1"), "attained 250 GPU-s >= threshold 200"),
                row("quanta: with service-estimate=censored the running job counts as at least its 250 GPU-s: the"
                                + " median rises to 300 and it stays in queue 0",
                        "policy=quanta gittins.min-samples=4 quanta.threshold-quantiles=0.5,0.75"
                                + " quanta.service-estimate=censored", learnedCell(), List.of(), ""),
                row("quanta: ... and with service-estimate=censored-index the thresholds stay the completed jobs'",
                        "policy=quanta gittins.min-samples=4 quanta.threshold-quantiles=0.5,0.75"
                                + " quanta.service-estimate=censored-index", learnedCell(),
                        List.of("CHANGE_QUEUE a 0->1"), "attained 250 GPU-s >= threshold 200"),
                row("quanta: ... and with service-estimate=censored-thresholds they rise",
                        "policy=quanta gittins.min-samples=4 quanta.threshold-quantiles=0.5,0.75"
                                + " quanta.service-estimate=censored-thresholds", learnedCell(), List.of(), ""),
                row("quanta: a new job preempts the latest victim, which outlived every completed job (index 0)",
                        CENSORED_INDEX, censoredIndexCell(), List.of("SUSPEND v"),
                        "queue 1 job v preempted by queue 0 job w"),
                row("quanta: ... but with service-estimate=censored-index v, 1,000 GPU-s short of a job still "
                                + "running, ranks above w, and w preempts that job instead",
                        CENSORED_INDEX + " quanta.service-estimate=censored-index", censoredIndexCell(),
                        List.of("SUSPEND x"), "queue 1 job x preempted by queue 0 job w"),
                row("quanta: the configured thresholds until enough jobs completed",
                        "policy=quanta gittins.min-samples=5 quanta.threshold-quantiles=0.5,0.75", learnedCell(),
                        List.of(), ""),
                row("quanta with quanta.ranking=las: FIFO inside a queue", "policy=quanta gittins.min-samples=4 "
                                + "tiresias.thresholds=350,2000 quanta.threshold-quantiles=off quanta.ranking=las",
                        gittinsCell(), List.of("START q n1/0"), "queue 0, attained 0 GPU-s"),
                row("gandiva: de-fragment a spread job by migration", "policy=gandiva",
                        aCell().nodes(aNode("n1").gpus(4), aNode("n2").gpus(4), aNode("n3").gpus(4)).jobs(
                                aJob("m").seq(1).runningOn("n1", 2, 3).runningOn("n2", 2, 3).skew(0.9)
                                        .executed(500)).build(),
                        List.of("MIGRATE m n1/2,n1/3,n2/2,n2/3->n3/0,n3/1,n3/2,n3/3"), "2 nodes -> 4 GPUs on 1 node"),
                row("quanta: no de-fragmenting while a job waits (defragment=idle, default)",
                        "policy=quanta quanta.reconsolidate=off", spreadWhileWaitingCell(), List.of(), ""),
                row("quanta: with defragment=always a spread job moves onto GPUs the waiting job cannot use",
                        "policy=quanta quanta.defragment=always quanta.reconsolidate=off", spreadWhileWaitingCell(),
                        List.of("MIGRATE m n1/2,n1/3,n2/2,n2/3->n3/0,n3/1,n3/2,n3/3"), "2 nodes -> 4 GPUs on 1 node"),
                row("quanta: a gang running spread moves onto a free server at once (reconsolidate=on, default)",
                        "policy=quanta", spreadWhileWaitingCell(),
                        List.of("MIGRATE m n1/2,n1/3,n2/2,n2/3->n3/0,n3/1,n3/2,n3/3"), "spread over 2 servers, onto"),
                row("quanta: with reconsolidate=on room is made for a spread gang, and a waiting job cannot take it",
                        "policy=quanta placement.packing=off quanta.reconsolidate=on", spreadNoServerCell(),
                        List.of("MIGRATE d n3/0->n2/1", "MIGRATE e n3/1->n4/0"),
                        "to make room for gang m (4 GPUs, running spread over 2 servers)"),
                row("quanta: with reconsolidate=off the waiting job takes the free GPUs, the gang stays spread",
                        "policy=quanta placement.packing=off quanta.reconsolidate=off", spreadNoServerCell(),
                        List.of("START w n3/2,n3/3"), "start job w"),
                row("quanta: reconsolidate stays within migration.max-per-pass",
                        "policy=quanta placement.packing=off quanta.reconsolidate=on migration.max-per-pass=1",
                        spreadNoServerCell(), List.of("START w n3/2,n3/3"), "start job w"),
                row("quanta: reconsolidate moves nothing with migration off",
                        "policy=quanta quanta.reconsolidate=on migration.enabled=off", spreadWhileWaitingCell(),
                        List.of(), ""),
                row("quanta: a packed gang finds no free server and stays packed (unpack-room=off, default)",
                        "policy=quanta", packedGangCell(false), List.of(), ""),
                row("quanta: with unpack-room=on room is made for a packed gang once no job waits",
                        "policy=quanta quanta.unpack-room=on", packedGangCell(false),
                        List.of("MIGRATE c n3/0->n2/2"), "to make room for gang p (4 GPUs, packed with q)"),
                row("quanta: with unpack-room=on a packed gang moves onto a free server at once",
                        "policy=quanta quanta.unpack-room=on", packedGangCell(true),
                        List.of("MIGRATE p n1/0,n1/1,n1/2,n1/3->n4/0,n4/1,n4/2,n4/3"),
                        "unpack job p (shared with q) onto 4 GPUs on 1 node"),
                row("quanta: unpack-room makes room only with what the waiting jobs left",
                        "policy=quanta quanta.unpack-room=on placement.packing=off", packedGangCell(false, true),
                        List.of("MIGRATE c n3/0->n4/1", "START w n2/2,n2/3"), "start job w"),
                row("quanta: unpack-room stays within migration.max-per-pass",
                        "policy=quanta quanta.unpack-room=on migration.max-per-pass=0", packedGangCell(false),
                        List.of(), ""),
                row("quanta: unpack-room moves nothing with migration off",
                        "policy=quanta quanta.unpack-room=on migration.enabled=off", packedGangCell(false),
                        List.of(), ""),
                row("quanta: a waiting gang keeps every pack together (unpack-while-waiting=off, default)",
                        "policy=quanta", packedWhileGangWaitsCell(), List.of(), ""),
                row("quanta: with unpack-while-waiting=on a pack unpacks onto a GPU the waiting gang cannot use",
                        "policy=quanta quanta.unpack-while-waiting=on", packedWhileGangWaitsCell(),
                        List.of("MIGRATE b n1/0->n2/0"), "the jobs left waiting cannot use these free GPUs"),
                row("quanta: a waiting gang packs with a pair nobody measured (gang-packs=any, default)",
                        "policy=quanta", gangPackCell(false), List.of("PACK w n1/0,n1/1 with g"), "over-subscribed"),
                row("quanta: with gang-packs=proven a gang does not try a pair nobody measured",
                        "policy=quanta quanta.gang-packs=proven", gangPackCell(false), List.of(), ""),
                row("quanta: ... but packs with a pair that a running pack has proven",
                        "policy=quanta quanta.gang-packs=proven", gangPackCell(true), List.of("PACK w n1/0,n1/1 with g"),
                        "over-subscribed"),
                row("quanta: ... and a one-GPU job still tries a pair nobody measured",
                        "policy=quanta quanta.gang-packs=proven", packCell(8000, InterferenceMemory.empty(16)),
                        List.of("PACK b n1/0 with a"), "over-subscribed"),
                row("quanta: with pack-locality=any a gang still waiting for one server packs onto a spread partner",
                        "policy=quanta quanta.pack-locality=any", spreadPartnerCell(true, 5),
                        List.of("PACK w n1/0,n2/0 with g"),
                        "over-subscribed"),
                row("quanta: with pack-locality=rule (default) it does not: a pack would spread it before its timeout",
                        "policy=quanta quanta.pack-locality=rule", spreadPartnerCell(true, 5), List.of(), ""),
                row("quanta: ... past its relaxation timeout it packs onto the spread partner, as it could start spread",
                        "policy=quanta quanta.pack-locality=rule", spreadPartnerCell(true, 4000),
                        List.of("PACK w n1/0,n2/0 with g"), "over-subscribed"),
                row("quanta: ... and a relaxed gang of the same shape behind one that may not pack still does",
                        "policy=quanta quanta.pack-locality=rule", spreadPartnerCell(true, 5, 4000),
                        List.of("PACK x n1/0,n2/0 with g"), "over-subscribed"),
                row("quanta: ... and before it, onto a partner on one server",
                        "policy=quanta quanta.pack-locality=rule", spreadPartnerCell(false, 5),
                        List.of("PACK w n1/0,n1/1 with g"), "over-subscribed"),
                row("quanta: a tenant within quota reclaims GPUs lent to another", "policy=quanta quota.a=4 quota.b=4",
                        quotaCell(), List.of("SUSPEND b2"), "runs on GPUs borrowed beyond its quota"),
                row("quanta without quotas: peers are not preempted", "policy=quanta",
                        quotaCell(), List.of(), ""),
                row("reject a GPU type the cell does not have", "policy=tiresias-las",
                        aCell().nodes(aNode("n1").gpus(4)).jobs(aJob("t").gpuType("A100")).build(),
                        List.of("REJECT t"), "needs 1 GPUs of type A100 but the cell has only 0"));
    }

    /** a and b packed for a window, each at {@code throughput} of 10/s, a spare GPU: the pack is kept. */
    static Scenario packKept(String name, String policy, double throughput, String reason) {
        return row(name, "policy=" + policy, packedCell(throughput, throughput, true),
                List.of("CONFIRM_PLACEMENT a", "CONFIRM_PLACEMENT b"), reason);
    }

    /** Like {@link #packKept} but the pack is reverted: the pair is remembered and b moves to the spare GPU. */
    static Scenario packMovedApart(String name, String policy, double throughput, String reason) {
        return row(name, "policy=" + policy, packedCell(throughput, throughput, true),
                List.of("RECORD_INTERFERENCE b a", "CONFIRM_PLACEMENT a", "MIGRATE b n1/0->n2/0"), reason);
    }

    /**
     * Two 4-GPU nodes, each half used; h (4 GPUs, skew 0.9) ran {@code ranSeconds} on its 4 GPUs before it was
     * suspended and has waited {@code waiting} seconds since.
     */
    static ClusterSnapshot ranBeforeCell(double ranSeconds, double waiting) {
        return aCell().nodes(aNode("n1").gpus(4), aNode("n2").gpus(4)).jobs(
                aJob("x").seq(1).runningOn("n1", 0, 1).executed(10),
                aJob("y").seq(2).runningOn("n2", 0, 1).executed(10),
                aJob("h").seq(3).gpus(4).skew(0.9).attained(4 * ranSeconds).level(2).executed(ranSeconds)
                        .waiting(waiting)).build();
    }

    /**
     * One GPU held by v, just demoted (attained 3,300 GPU-s, queue 1); a new job w waits. The cell has completed 10
     * jobs of 100 GPU-s and 30 of {@code commonService}.
     */
    static ClusterSnapshot indexCell(double commonService) {
        double[] samples = new double[40];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = i < 10 ? 100 : commonService;
        }
        return aCell().nodes(aNode("n1").gpus(1)).distribution(ServiceDistribution.of(64, 1, samples)).jobs(
                aJob("v").seq(1).runningOn("n1", 0).attained(3300).level(1).executed(3300),
                aJob("w").seq(2).waiting(5)).build();
    }

    /**
     * Two servers of 4 GPUs, each with 2 GPUs free: on n1 two 1-GPU jobs (a, b) run, on n2 two 1-GPU jobs (c, d), or
     * with {@code oneJobOnN2} one 2-GPU job c; a skewed 4-GPU gang g waits for a consolidated placement.
     */
    static ClusterSnapshot roomCell(boolean oneJobOnN2) {
        List<JobFixture> n2 = oneJobOnN2 ? List.of(aJob("c").seq(3).gpus(2).runningOn("n2", 0, 1).executed(100))
                : List.of(aJob("c").seq(3).runningOn("n2", 0).executed(100),
                        aJob("d").seq(4).runningOn("n2", 1).executed(100));
        List<JobFixture> jobs = new java.util.ArrayList<>(List.of(aJob("a").seq(1).runningOn("n1", 0).executed(100),
                aJob("b").seq(2).runningOn("n1", 1).executed(100)));
        jobs.addAll(n2);
        jobs.add(aJob("g").seq(5).gpus(4).skew(0.9).waiting(5));
        return aCell().nodes(aNode("n1").gpus(4), aNode("n2").gpus(4)).jobs(jobs.toArray(JobFixture[]::new)).build();
    }

    /**
     * n1 (4 GPUs) runs a and b with 2 GPUs free, n2 (1 GPU) runs c: the 4-GPU gang g would fit n1 only if a and b
     * moved, and no GPU is free for them elsewhere.
     */
    static ClusterSnapshot fullElsewhereCell() {
        return aCell().nodes(aNode("n1").gpus(4), aNode("n2").gpus(1)).jobs(
                aJob("a").seq(1).runningOn("n1", 0).executed(100), aJob("b").seq(2).runningOn("n1", 1).executed(100),
                aJob("c").seq(3).runningOn("n2", 0).executed(100), aJob("g").seq(4).gpus(4).skew(0.9).waiting(5))
                .build();
    }

    /**
     * n1 (4 GPUs) runs the 2-GPU job c with 2 GPUs free; n2 and n3 (2 GPUs each) run one job each with one GPU free:
     * the 4-GPU gang g would fit n1 if c moved, but c needs 2 GPUs on one server and none has them. A new 1-GPU job
     * s that needs n1's GPU model waits behind g.
     */
    static ClusterSnapshot noWayOffCell() {
        return aCell().nodes(aNode("n1").gpus(4).model("A100"), aNode("n2").gpus(2), aNode("n3").gpus(2)).jobs(
                aJob("c").seq(1).gpus(2).runningOn("n1", 0, 1).executed(100),
                aJob("x").seq(2).runningOn("n2", 0).executed(100), aJob("y").seq(3).runningOn("n3", 0).executed(100),
                aJob("g").seq(4).gpus(4).skew(0.9).waiting(5), aJob("s").seq(5).gpuType("A100").waiting(5)).build();
    }

    /** One free GPU; L (arrived first, declares 10,000 s) and S (declares 100 s) wait new in queue 0. */
    static ClusterSnapshot declaredCell() {
        return aCell().nodes(aNode("n1").gpus(1)).jobs(aJob("L").seq(1).duration(10_000),
                aJob("S").seq(2).duration(100)).build();
    }

    /**
     * {@link #gittinsCell}, but q declares 1,000 s (index 1/1,000) and p, attained 150 GPU-s, declared only 100: p's
     * learned index (0.005) ranks it, not a negative or infinite one from its overrun declaration.
     */
    static ClusterSnapshot overranCell() {
        return aCell().nodes(aNode("n1").gpus(1))
                .distribution(ServiceDistribution.of(16, 1, 100, 200, 300, 1000))
                .jobs(aJob("q").seq(1).duration(1000), aJob("p").seq(2).attained(150).executed(150).duration(100))
                .build();
    }

    /**
     * {@link #indexCell} with the cell's jobs saying v runs long (100,000 GPU-s), but v declares {@code vDuration} s
     * (3,300 of them attained) and the new job w declares {@code wDuration} s.
     */
    static ClusterSnapshot declaredIndexCell(double vDuration, double wDuration) {
        double[] samples = new double[40];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = i < 10 ? 100 : 100_000;
        }
        return aCell().nodes(aNode("n1").gpus(1)).distribution(ServiceDistribution.of(64, 1, samples)).jobs(
                aJob("v").seq(1).runningOn("n1", 0).attained(3300).level(1).executed(3300).duration(vDuration),
                aJob("w").seq(2).waiting(5).duration(wDuration)).build();
    }

    /**
     * Two GPUs: old (arrived first, attained 5,000 GPU-s, more than any completed job) and v (just demoted, 3,300
     * GPU-s, likely to end soon), both in queue 1 of the thresholds 3,250 and 7,200; a new job w waits. The cell's
     * completed jobs are those of {@link #indexCell} with 3,849 GPU-s. Tiresias' victim order takes v first.
     */
    static ClusterSnapshot pastCell() {
        double[] samples = new double[40];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = i < 10 ? 100 : 3_849;
        }
        return aCell().nodes(aNode("n1").gpus(2)).distribution(ServiceDistribution.of(64, 1, samples)).jobs(
                aJob("old").seq(1).runningOn("n1", 0).attained(5000).level(1).executed(5000),
                aJob("v").seq(2).runningOn("n1", 1).attained(3300).level(1).executed(3300),
                aJob("w").seq(3).waiting(5)).build();
    }

    /** One free GPU; p (attained 150) and q (attained 0, arrived first) both in queue 0 of thresholds 350, 2000. */
    static ClusterSnapshot gittinsCell() {
        return aCell().nodes(aNode("n1").gpus(1))
                .distribution(ServiceDistribution.of(16, 1, 100, 200, 300, 1000))
                .jobs(aJob("q").seq(1), aJob("p").seq(2).attained(150).executed(150)).build();
    }

    /**
     * v (tenant giant, attained 60,000 GPU-s, last queue) runs on the only GPU; w (tenant long, new) waits. The cell's
     * last completed jobs: 8 of tenant giant with 1,000,000 GPU-s and 8 of tenant long with 20,000. Under the
     * thresholds 350 and 2,000 w's index to its next threshold is 0 (none of its tenant's jobs ended within 350
     * GPU-s); over every look-ahead it is 1 / 20,000, and v's is 1 / 940,000.
     */
    static ClusterSnapshot lookAheadCell() {
        ServiceDistribution completed = ServiceDistribution.empty(64, 1);
        for (int i = 0; i < 8; i++) {
            completed = completed.record("giant", 1_000_000).record("long", 20_000);
        }
        return aCell().nodes(aNode("n1").gpus(1)).distribution(completed).jobs(
                aJob("v").seq(1).tenant("giant").runningOn("n1", 0).attained(60_000).level(2).executed(60_000),
                aJob("w").seq(2).tenant("long").waiting(5)).build();
    }

    /**
     * {@link #lookAheadCell()} with 8 more completed jobs of tenant quick, of 100 GPU-s each: a third of the cell's
     * completed jobs end within the first threshold (350), none of tenant long's. With 2 GPUs, one is free for w.
     */
    static ClusterSnapshot pooledCell(int gpus) {
        ServiceDistribution completed = ServiceDistribution.empty(64, 1);
        for (int i = 0; i < 8; i++) {
            completed = completed.record("giant", 1_000_000).record("long", 20_000).record("quick", 100);
        }
        return aCell().nodes(aNode("n1").gpus(gpus)).distribution(completed).jobs(
                aJob("v").seq(1).tenant("giant").runningOn("n1", 0).attained(60_000).level(2).executed(60_000),
                aJob("w").seq(2).tenant("long").waiting(5)).build();
    }

    /**
     * One free GPU; L (tenant long, arrived first) and S (tenant quick) wait new in queue 0. The cell's last completed
     * jobs: {@code each} of tenant long with 20,000 GPU-s, then {@code each} of tenant quick with 100 GPU-s. The cell's
     * index of a new job is the same for both; tenant quick's says its jobs end within the first threshold (350),
     * tenant long's that they never do.
     */
    static ClusterSnapshot tenantCell(int each) {
        ServiceDistribution completed = ServiceDistribution.empty(64, 1);
        for (int i = 0; i < each; i++) {
            completed = completed.record("long", 20_000);
        }
        for (int i = 0; i < each; i++) {
            completed = completed.record("quick", 100);
        }
        return aCell().nodes(aNode("n1").gpus(1)).distribution(completed)
                .jobs(aJob("L").seq(1).tenant("long"), aJob("S").seq(2).tenant("quick")).build();
    }

    /**
     * One free GPU; S (tenant quick, attained 150 GPU-s, more than any of its tenant's 8 jobs of 100) and M (tenant mid,
     * new) wait in queue 0 below the threshold 350. Tenant mid's 8 jobs of 300 GPU-s give M 1/300; tenant quick's jobs
     * say nothing about a job past 100, so S gets the cell's index, 1/150 (the 8 jobs of 300 end within the threshold),
     * not 0.
     */
    static ClusterSnapshot outlivedCell() {
        ServiceDistribution completed = ServiceDistribution.empty(64, 1);
        for (int i = 0; i < 8; i++) {
            completed = completed.record("quick", 100).record("mid", 300);
        }
        return aCell().nodes(aNode("n1").gpus(1)).distribution(completed)
                .jobs(aJob("M").seq(1).tenant("mid"), aJob("S").seq(2).tenant("quick").attained(150).executed(150))
                .build();
    }

    /**
     * One free GPU; q (arrived first, attained 2,000 GPU-s, more than any completed job: index 0) and p (attained 400)
     * wait in the last queue of the one threshold 350. The cell's completed jobs: 100, 200, 300, 1,000 GPU-s.
     */
    static ClusterSnapshot lastQueueCell() {
        return aCell().nodes(aNode("n1").gpus(1))
                .distribution(ServiceDistribution.of(16, 1, 100, 200, 300, 1000))
                .jobs(aJob("q").seq(1).attained(2000).executed(2000).level(1).waiting(600),
                        aJob("p").seq(2).attained(400).executed(400).level(1).waiting(60)).build();
    }

    /** x runs on the only GPU; a (queue 2, attained 9,000 GPU-s, last run 400 s) has waited {@code waiting} s. */
    static ClusterSnapshot knobCell(double waiting) {
        return aCell().nodes(aNode("n1").gpus(1)).jobs(
                aJob("x").seq(1).runningOn("n1", 0).executed(10),
                aJob("a").seq(2).attained(9000).level(2).executed(400).waiting(waiting)).build();
    }

    /**
     * v (queue 1, attained {@code victimAttained}) holds the only GPU; a waits in queue 0 with 5,000 GPU-s attained,
     * above the first threshold (3,250): the starvation knob promoted it.
     */
    static ClusterSnapshot promotedCell(double victimAttained) {
        return aCell().nodes(aNode("n1").gpus(1)).jobs(
                aJob("v").seq(1).runningOn("n1", 0).attained(victimAttained).level(1).executed(600),
                aJob("a").seq(2).attained(5000).level(0).executed(60).waiting(30)).build();
    }

    /**
     * v (queue 2, 8,000 GPU-s) holds n1's only GPU and x (queue 0) n2's; a, promoted by the knob to queue 0 with 5,000
     * GPU-s and needing {@code aGpus} GPUs, may not preempt v (it attained less than twice a's service); b waits in
     * queue 1 with 4,000 GPU-s, behind a, and may.
     */
    static ClusterSnapshot servesCell(int aGpus) {
        return aCell().nodes(aNode("n1").gpus(1), aNode("n2").gpus(1)).jobs(
                aJob("v").seq(1).runningOn("n1", 0).attained(8000).level(2).executed(600),
                aJob("x").seq(2).runningOn("n2", 0).attained(100).level(0).executed(100),
                aJob("a").seq(3).gpus(aGpus).attained(5000).level(0).executed(60).waiting(30),
                aJob("b").seq(4).attained(4000).level(1).executed(4000).waiting(30)).build();
    }

    /** v (queue 1, preempted twice before) has run {@code executed} s on the only GPU; a new job w waits. */
    /** v holds the only GPU in {@code level} with {@code attained} GPU-s (thresholds 3,250 and 7,200); w waits, new. */
    static ClusterSnapshot graceCell(int level, double attained) {
        return aCell().nodes(aNode("n1").gpus(1)).jobs(
                aJob("v").seq(1).runningOn("n1", 0).attained(attained).level(level).executed(attained),
                aJob("w").seq(2).waiting(5)).build();
    }

    static ClusterSnapshot backoffCell(double executed) {
        return aCell().nodes(aNode("n1").gpus(1)).jobs(
                aJob("v").seq(1).runningOn("n1", 0).attained(4000).level(1).executed(executed).preemptions(2),
                aJob("w").seq(2).waiting(5)).build();
    }

    /**
     * x (queue 0) holds the only GPU; b waits in queue 2 with 150 GPU-s attained, demoted when the thresholds were
     * lower; the cell's completed jobs (100, 200, 300, 1,000 GPU-s) now put the first threshold at 200.
     */
    static ClusterSnapshot relevelCell() {
        return aCell().nodes(aNode("n1").gpus(1)).distribution(ServiceDistribution.of(16, 1, 100, 200, 300, 1000))
                .jobs(aJob("x").seq(1).runningOn("n1", 0).executed(10).attained(10),
                        aJob("b").seq(2).attained(150).level(2).executed(150).waiting(10)).build();
    }

    /** The settings of the {@link #censoredIndexCell} rows: two queues split at 3,250 GPU-s, no packing. */
    private static final String CENSORED_INDEX = "policy=quanta placement.packing=off gittins.min-samples=4 "
            + "tiresias.thresholds=3250 quanta.threshold-quantiles=off";

    /**
     * x (50,000 GPU-s) and v (49,000, arrived after x) run in the last queue, one GPU each; w waits, new; the cell's
     * four completed jobs took 100 GPU-s each, so from them alone v and x have index 0, while the censored estimate
     * puts a third of the mass at x's 50,000 GPU-s: v's index is 1 / 1,000, above w's (about 1 / 1,700).
     */
    static ClusterSnapshot censoredIndexCell() {
        return aCell().nodes(aNode("n1").gpus(1), aNode("n2").gpus(1))
                .distribution(ServiceDistribution.of(16, 1, 100, 100, 100, 100))
                .jobs(aJob("x").seq(1).runningOn("n2", 0).attained(50_000).level(1).executed(50_000),
                        aJob("v").seq(2).runningOn("n1", 0).attained(49_000).level(1).executed(49_000),
                        aJob("w").seq(3).waiting(5)).build();
    }

    /** One running job a (attained 250 GPU-s, queue 0); the cell has completed jobs of 100, 200, 300 and 1,000 GPU-s. */
    static ClusterSnapshot learnedCell() {
        return aCell().nodes(aNode("n1").gpus(1)).distribution(ServiceDistribution.of(16, 1, 100, 200, 300, 1000))
                .jobs(aJob("a").seq(1).runningOn("n1", 0).attained(250).executed(250)).build();
    }

    /** Two 4-GPU nodes, each half used; a 4-GPU job h with the given skew and waiting time. */
    static ClusterSnapshot halfFullCell(double skew, double waiting) {
        return aCell().nodes(aNode("n1").gpus(4), aNode("n2").gpus(4)).jobs(
                aJob("x").seq(1).runningOn("n1", 0, 1).executed(10),
                aJob("y").seq(2).runningOn("n2", 0, 1).executed(10),
                aJob("h").seq(3).gpus(4).skew(skew).waiting(waiting)).build();
    }

    /**
     * Two 4-GPU servers, 2 GPUs free on n1 and 1 on n2, their jobs in queue 0 (nothing to preempt); the 4-GPU gang h,
     * ahead in the queue, has waited {@code waiting} s; the 2-GPU job s arrived after it.
     */
    static ClusterSnapshot reserveCell(double waiting) {
        return aCell().nodes(aNode("n1").gpus(4), aNode("n2").gpus(4)).jobs(
                aJob("x").seq(1).runningOn("n1", 0, 1).attained(100).executed(50),
                aJob("y").seq(2).runningOn("n2", 0, 1, 2).attained(100).executed(50),
                aJob("h").seq(3).gpus(4).waiting(waiting),
                aJob("s").seq(4).gpus(2).waiting(5)).build();
    }

    /**
     * m (4 GPUs, skewed) runs spread over n1 and n2, n3 (4 V100) is free; w waits for 2 P100 GPUs, which x holds on
     * n4 (neither can share a GPU with the other: 20,000 MiB each on 32,768).
     */
    static ClusterSnapshot spreadWhileWaitingCell() {
        return aCell().nodes(aNode("n1").gpus(4), aNode("n2").gpus(4), aNode("n3").gpus(4),
                aNode("n4").gpus(2).model("P100")).jobs(
                aJob("m").seq(1).runningOn("n1", 2, 3).runningOn("n2", 2, 3).skew(0.9).executed(500).attained(100),
                aJob("x").seq(2).runningOn("n4", 0, 1).model("big", 0.9, 20_000, 100).executed(50).attained(100),
                aJob("w").seq(3).gpus(2).gpuType("P100").model("big", 0.9, 20_000, 100).waiting(5)).build();
    }

    /**
     * The 4-GPU gang m (skewed) runs spread over n1 and n2 beside the one-GPU jobs a, b (n1) and c (n2); n3 runs the
     * one-GPU jobs d and e with 2 GPUs free; n2 has 1 GPU free and n4 (2 GPUs) is free. No server has 4 free GPUs:
     * m fits n3 once d and e move to n2 and n4. The 2-GPU job w waits, new.
     */
    static ClusterSnapshot spreadNoServerCell() {
        return aCell().nodes(aNode("n1").gpus(4), aNode("n2").gpus(4), aNode("n3").gpus(4), aNode("n4").gpus(2)).jobs(
                aJob("m").seq(1).runningOn("n1", 2, 3).runningOn("n2", 2, 3).skew(0.9).executed(500).attained(100),
                aJob("a").seq(2).runningOn("n1", 0).executed(100), aJob("b").seq(3).runningOn("n1", 1).executed(100),
                aJob("c").seq(4).runningOn("n2", 0).executed(100), aJob("d").seq(5).runningOn("n3", 0).executed(100),
                aJob("e").seq(6).runningOn("n3", 1).executed(100), aJob("w").seq(7).gpus(2).waiting(5)).build();
    }

    /**
     * a and b share n1's one GPU, settled; n2's one GPU is free; the 2-GPU gang w waits, new, and can neither start
     * (one GPU free), preempt (every job is in queue 0) nor pack (no running job of its size).
     */
    static ClusterSnapshot packedWhileGangWaitsCell() {
        return aCell().nodes(aNode("n1").gpus(1), aNode("n2").gpus(1)).jobs(
                aJob("a").seq(1).runningOn("n1", 0).executed(3000).attained(3000).sharingWith("b"),
                aJob("b").seq(2).runningOn("n1", 0).executed(100).attained(100).sharingWith("a"),
                aJob("w").seq(3).gpus(2).waiting(5)).build();
    }

    /**
     * n1's two GPUs run the gang g (lstm), the gang w (resnet50) waits and can neither start nor preempt (both in
     * queue 0); n2's GPU runs one-GPU jobs of the same two models, packed and kept by introspection when
     * {@code provenPair}, else one lstm job alone.
     */
    static ClusterSnapshot gangPackCell(boolean provenPair) {
        var cell = aCell().nodes(aNode("n1").gpus(2).memoryMiB(16_000), aNode("n2").gpus(1).memoryMiB(16_000));
        var g = aJob("g").seq(1).gpus(2).runningOn("n1", 0, 1).executed(100).attained(200)
                .model("lstm", 0.1, 6000, 100);
        var w = aJob("w").seq(4).gpus(2).waiting(5).model("resnet50", 0.1, 8000, 100);
        if (provenPair) {
            return cell.jobs(g, aJob("a").seq(2).runningOn("n2", 0).executed(500).attained(500).sharingWith("b")
                            .model("lstm", 0.1, 6000, 100),
                    aJob("b").seq(3).runningOn("n2", 0).executed(400).attained(400).sharingWith("a")
                            .model("resnet50", 0.1, 8000, 100), w).build();
        }
        return cell.jobs(g, aJob("a").seq(2).runningOn("n2", 0).executed(500).attained(500)
                .model("lstm", 0.1, 6000, 100), w).build();
    }

    /**
     * Two servers of two GPUs, full: the 2-GPU lstm gang g (skewed, so quanta wants it on one server) runs on n1/0 and
     * n2/0 ({@code spread}) or on n1/0 and n1/1, the one-GPU jobs a and b on the others; the new 2-GPU resnet50 gang w
     * has waited {@code waited} seconds (relaxed after 3,600). All in queue 0: nobody may be preempted.
     */
    static ClusterSnapshot spreadPartnerCell(boolean spread, double waited) {
        return spreadPartnerCell(spread, waited, -1);
    }

    /** The same; with {@code xWaited >= 0} a 2-GPU resnet50 gang x, arrived after w, has waited that long. */
    static ClusterSnapshot spreadPartnerCell(boolean spread, double waited, double xWaited) {
        var g = aJob("g").seq(1).executed(100).attained(200).model("lstm", 0.1, 6000, 100);
        var a = aJob("a").seq(2).executed(100).attained(100);
        var b = aJob("b").seq(3).executed(100).attained(100);
        if (spread) {
            g.runningOn("n1", 0).runningOn("n2", 0);
            a.runningOn("n1", 1);
        } else {
            g.runningOn("n1", 0, 1);
            a.runningOn("n2", 0);
        }
        b.runningOn("n2", 1);
        List<JobFixture> jobs = new ArrayList<>(List.of(g, a, b,
                aJob("w").seq(4).gpus(2).waiting(waited).model("resnet50", 0.1, 8000, 100)));
        if (xWaited >= 0) {
            jobs.add(aJob("x").seq(5).gpus(2).waiting(xWaited).model("resnet50", 0.1, 8000, 100));
        }
        return aCell().nodes(aNode("n1").gpus(2).memoryMiB(16_000), aNode("n2").gpus(2).memoryMiB(16_000))
                .jobs(jobs.toArray(JobFixture[]::new)).build();
    }

    static ClusterSnapshot packedGangCell(boolean freeServer) {
        return packedGangCell(freeServer, false);
    }

    /**
     * The 4-GPU gangs p (skewed, less attained) and q share n1's four GPUs, settled; n2 runs the one-GPU jobs a and b
     * (2 GPUs free), n3 runs c (3 free); n4 runs d (3 free), or with {@code freeServer} nothing. Without a free
     * server no server has 4 free GPUs: p fits n3 once c moves to n2. With {@code waiting} the 2-GPU job w waits.
     */
    static ClusterSnapshot packedGangCell(boolean freeServer, boolean waiting) {
        List<JobFixture> jobs = new ArrayList<>(List.of(
                aJob("p").seq(1).runningOn("n1", 0, 1, 2, 3).skew(0.9).executed(5000).attained(20_000).level(2)
                        .sharingWith("q"),
                aJob("q").seq(2).runningOn("n1", 0, 1, 2, 3).skew(0.9).executed(9000).attained(36_000).level(2)
                        .sharingWith("p"),
                aJob("a").seq(3).runningOn("n2", 0).executed(100), aJob("b").seq(4).runningOn("n2", 1).executed(100),
                aJob("c").seq(5).runningOn("n3", 0).executed(100)));
        if (!freeServer) {
            jobs.add(aJob("d").seq(6).runningOn("n4", 0).executed(100));
        }
        if (waiting) {
            jobs.add(aJob("w").seq(7).gpus(2).waiting(5));
        }
        return aCell().nodes(aNode("n1").gpus(4), aNode("n2").gpus(4), aNode("n3").gpus(4), aNode("n4").gpus(4))
                .jobs(jobs.toArray(JobFixture[]::new)).build();
    }

    /**
     * All in the last queue (ordered by arrival, latest yields first): h (arrived first) with g (arrived last) packed on
     * n1/0, s (arrived between them) alone on n1/1; a new one-GPU job w waits.
     */
    static ClusterSnapshot packVictimCell() {
        return packVictimCell(true);
    }

    /** The same; without {@code between}, s arrived before h (so the pack is the last queue's latest arrivals). */
    static ClusterSnapshot packVictimCell(boolean between) {
        return aCell().nodes(aNode("n1").gpus(2)).jobs(
                aJob("h").seq(2).runningOn("n1", 0).attained(9000).level(2).executed(9000).sharingWith("g"),
                aJob("s").seq(between ? 3 : 1).runningOn("n1", 1).attained(9000).level(2).executed(9000),
                aJob("g").seq(4).runningOn("n1", 0).attained(9000).level(2).executed(9000).sharingWith("h"),
                aJob("w").seq(5).waiting(5)).build();
    }

    /** One 16 GiB GPU running v (lstm, 6,000 MiB, queue 1); a new job w (resnet50, 8,000 MiB) waits. */
    static ClusterSnapshot packOrPreemptCell() {
        return packOrPreemptCell(InterferenceMemory.empty(16));
    }

    static ClusterSnapshot packOrPreemptCell(InterferenceMemory memory) {
        return aCell().interference(memory).nodes(aNode("n1").gpus(1).memoryMiB(16_000)).jobs(
                aJob("v").seq(1).runningOn("n1", 0).attained(4000).level(1).executed(1000)
                        .model("lstm", 0.1, 6000, 100),
                aJob("w").seq(2).waiting(5).model("resnet50", 0.1, 8000, 100)).build();
    }

    /** One 16 GiB GPU running a (lstm, 6000 MiB, slice not expired); b (resnet50) waits with the given memory. */
    static ClusterSnapshot packCell(long memoryOfB, InterferenceMemory memory) {
        return aCell().interference(memory).nodes(aNode("n1").gpus(1).memoryMiB(16_000)).jobs(
                aJob("a").seq(1).runningOn("n1", 0).executed(10).model("lstm", 0.1, 6000, 100),
                aJob("b").seq(2).waiting(5).model("resnet50", 0.1, memoryOfB, 100)).build();
    }

    /** a and b packed on n1/0 for 130 s (window 120): a's baseline 10/s, b's solo speed 10/s. */
    static ClusterSnapshot packedCell(double throughputA, double throughputB, boolean spareGpu) {
        var cell = aCell().at(10_000);
        if (spareGpu) {
            cell.nodes(aNode("n1").gpus(1).memoryMiB(16_000), aNode("n2").gpus(1).memoryMiB(16_000));
        } else {
            cell.nodes(aNode("n1").gpus(1).memoryMiB(16_000));
        }
        return cell.jobs(
                aJob("a").seq(1).runningOn("n1", 0).executed(5000).sharingWith("b").throughput(throughputA)
                        .baseline(10).placementChangedAt(10_000 - 130).model("lstm", 0.1, 6000, 100),
                aJob("b").seq(2).runningOn("n1", 0).executed(128).sharingWith("a").throughput(throughputB)
                        .placementChangedAt(10_000 - 130).model("resnet50", 0.1, 8000, 100)).build();
    }

    /** One 8-GPU node used by tenant b (two 4-GPU jobs, quota 4 when set); tenant a's 4-GPU job waits. */
    static ClusterSnapshot quotaCell() {
        return aCell().nodes(aNode("n1").gpus(8)).jobs(
                aJob("b1").seq(1).tenant("b").runningOn("n1", 0, 1, 2, 3).executed(100).attained(400),
                aJob("b2").seq(2).tenant("b").runningOn("n1", 4, 5, 6, 7).executed(100).attained(400),
                aJob("a1").seq(3).tenant("a").gpus(4).waiting(10)).build();
    }

    @org.junit.jupiter.api.Test
    void shouldSayInTheGangsWaitingReasonWhichServerIsEmptiedForIt() {
        Decisions decisions = PolicyRegistry.builtIn().create(PolicyConfig.of(Map.of("policy", "quanta",
                "placement.packing", "off", "quanta.make-room", "on"))).decide(roomCell(false));

        assertThat(decisions.waiting().get("g").text())
                .contains("4 GPUs on n1 are being freed for it (smaller jobs are moving off to make room)");
    }

    @org.junit.jupiter.api.Test
    void shouldSayInTheWaitingReasonWhichJobAheadWouldTakeTheGpusItDidNotPreemptFor() {
        Decisions decisions = PolicyRegistry.builtIn().create(PolicyConfig.of(Map.of("policy", "quanta",
                "quanta.preempt-by-index", "off", "quanta.preemption-serves", "preemptor"))).decide(servesCell(1));

        assertThat(decisions.waiting().get("b").text()).endsWith("; it could preempt, but job a, ahead of it and"
                + " waiting, would take the GPUs freed, so it does not");
        assertThat(decisions.waiting().get("a").text()).doesNotContain("it could preempt");
    }

    @org.junit.jupiter.api.Test
    void shouldGiveBackTheFreeGpusWhenNoJobCanMoveOffTheServer() {
        Decisions decisions = PolicyRegistry.builtIn().create(PolicyConfig.of(Map.of("policy", "quanta",
                "placement.packing", "off", "quanta.make-room", "on"))).decide(noWayOffCell());

        assertThat(Render.all(decisions)).containsExactly("START s n1/2");
        assertThat(decisions.waiting().get("g").text()).doesNotContain("held back");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void shouldDecideAsTheRuleSays(Scenario s) {
        Decisions decisions = PolicyRegistry.builtIn().create(PolicyConfig.of(s.config())).decide(s.snapshot());

        assertThat(Render.all(decisions)).isEqualTo(s.expected());
        assertThat(DecisionValidator.violations(s.snapshot(), decisions)).isEmpty();
        if (!s.reasonFragment().isEmpty()) {
            assertThat(decisions.list()).anySatisfy(d -> assertThat(d.reason()).contains(s.reasonFragment()));
        }
    }
}
