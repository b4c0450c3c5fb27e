package io.quanta.streams;

import static io.quanta.streams.testing.Records.at;
import static io.quanta.streams.testing.Records.event;
import static io.quanta.streams.testing.Records.job;
import static io.quanta.streams.testing.Records.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.quanta.core.decision.Decision;
import io.quanta.core.model.ClusterSnapshot;
import io.quanta.core.model.GpuId;
import io.quanta.core.config.PolicyConfig;
import io.quanta.schemas.DecisionType;
import io.quanta.schemas.JobEvent;
import io.quanta.schemas.JobEventType;
import io.quanta.schemas.JobState;
import io.quanta.schemas.NodeCommand;
import io.quanta.schemas.NodeCommandType;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.streams.testing.Records;
import io.quanta.streams.testing.ScriptedPolicy;
import io.quanta.streams.testing.SchedulerDriver;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The processor's side of the decision contract, driven by a scripted policy: every decision type, all-or-nothing. */
class PlanApplicationTest {

    private static final String CELL = SchedulerDriver.CELL;

    private static SchedulerDriver driver(Deque<Function<ClusterSnapshot, List<Decision>>> plans) {
        return new SchedulerDriver(SchedulerSettings.defaults().withPolicy(scripted()), StoreOptions.inMemory(),
                ScriptedPolicy.registry(plans));
    }

    private static PolicyConfig scripted() {
        return PolicyConfig.of(Map.of("policy", "scripted"));
    }

    private static GpuId gpu(String node, int index) {
        return new GpuId(node, index);
    }

    @Test
    void shouldApplyNothingAndRecordWhyWhenThePlanGivesAGpuTwice() {
        try (SchedulerDriver driver = driver(ScriptedPolicy.plans(s -> s.jobs().size() < 2 ? List.of() : List.of(
                new Decision.Start("a", List.of(gpu("n1", 0)), "scripted: a"),
                new Decision.Start("b", List.of(gpu("n1", 0)), "scripted: b"))))) {
            driver.heartbeat(node("n1", CELL, 2, 1, at(0)).build());
            driver.submit(job("a", 1).build(), at(1));
            driver.submit(job("b", 1).build(), at(1));

            assertThat(driver.commands()).isEmpty();
            SchedulingDecision invalid = driver.decisions().getLast();
            assertThat(invalid.getType()).isEqualTo(DecisionType.INVALID_PLAN);
            assertThat(invalid.getReason()).contains("GPU n1/0 is also given to job a");
            assertThat(invalid.getDetails()).hasSize(2);
            assertThat(driver.lastStatus("a").getState()).isEqualTo(JobState.QUEUED);
        }
    }

    @Test
    void shouldRefuseAStartOnAGpuThatIsNotFree() {
        try (SchedulerDriver driver = driver(ScriptedPolicy.plans(
                s -> s.job("a").isEmpty() ? List.of()
                        : List.of(new Decision.Start("a", List.of(gpu("n1", 0)), "scripted: a")),
                s -> s.job("b").isEmpty() ? List.of()
                        : List.of(new Decision.Start("b", List.of(gpu("n1", 0)), "scripted: b on a's GPU"))))) {
            driver.heartbeat(node("n1", CELL, 2, 1, at(0)).build());
            driver.submit(job("a", 1).build(), at(1));

            driver.submit(job("b", 1).build(), at(2));

            assertThat(driver.commands()).extracting(NodeCommand::getJobId).containsExactly("a");
            assertThat(driver.decisions().getLast().getReason()).contains("GPU n1/0 is used by [a]");
        }
    }

    @Test
    void shouldPackAJobWithItsPartnerAndRecordTheSharing() {
        try (SchedulerDriver driver = driver(ScriptedPolicy.plans(
                s -> s.job("a").isEmpty() ? List.of()
                        : List.of(new Decision.Start("a", List.of(gpu("n1", 0)), "scripted: a")),
                s -> s.job("b").isEmpty() || !s.job("a").map(j -> j.isRunning()).orElse(false) ? List.of()
                        : List.of(new Decision.Pack("b", List.of(gpu("n1", 0)), List.of("a"), "scripted: pack b")),
                s -> !s.job("b").map(j -> j.isRunning()).orElse(false) ? List.of() : List.of(
                        new Decision.RecordInterference("b", "a", "resnet50", "resnet50", "scripted: bad pair"),
                        new Decision.ConfirmPlacement("a", "scripted: keep a"))))) {
            driver.heartbeat(node("n1", CELL, 1, 1, at(0)).build());
            driver.submit(job("a", 1).build(), at(1));
            driver.event(event("a", 1, "n1", JobEventType.STARTED, at(2)));

            driver.submit(job("b", 1).build(), at(3));

            NodeCommand pack = driver.commands().getLast();
            assertThat(pack.getJobId()).isEqualTo("b");
            assertThat(pack.getSharingWith()).containsExactly("a");
            assertThat(pack.getGpuIndices()).containsExactly(0);
            assertThat(driver.decisions().getLast().getType()).isEqualTo(DecisionType.PACK);

            driver.event(event("b", 1, "n1", JobEventType.STARTED, at(4)));
            driver.heartbeat(node("n1", CELL, 1, 1, at(15)).build());

            assertThat(driver.decisions()).extracting(SchedulingDecision::getType)
                    .contains(DecisionType.RECORD_INTERFERENCE, DecisionType.CONFIRM_PLACEMENT);
        }
    }

    @Test
    void shouldForgetAPartnersSharedRateWhenItsPartnerLeavesSoTheNextPackIsJudgedAgainstItsSpeedAlone() {
        AtomicReference<Double> rateAfterRevert = new AtomicReference<>();
        AtomicReference<Double> baselineOfNextPack = new AtomicReference<>();
        try (SchedulerDriver driver = driver(ScriptedPolicy.plans(
                s -> s.job("a").isEmpty() ? List.of()
                        : List.of(new Decision.Start("a", List.of(gpu("n1", 0)), "scripted: a")),
                s -> s.job("b").isEmpty() || !s.job("a").map(j -> j.isRunning()).orElse(false) ? List.of()
                        : List.of(new Decision.Pack("b", List.of(gpu("n1", 0)), List.of("a"), "scripted: pack b")),
                s -> s.job("a").map(j -> j.throughput() != 2.5).orElse(true) ? List.of() : List.of(
                        new Decision.Suspend("b", "scripted: pack reverted"),
                        new Decision.ConfirmPlacement("a", "scripted: keep a")),
                s -> s.job("c").isEmpty() || !s.job("a").map(j -> j.sharingWith().isEmpty()).orElse(false)
                        ? List.of() : pack(s, rateAfterRevert),
                s -> s.job("c").map(j -> j.isRunning()).orElse(false)
                        ? List.of(record(s, baselineOfNextPack)) : List.of()))) {
            driver.heartbeat(node("n1", CELL, 1, 1, at(0)).build());
            driver.submit(job("a", 1).build(), at(1));
            driver.event(event("a", 1, "n1", JobEventType.STARTED, at(2)));
            driver.telemetry(Records.telemetry("a", 1, "n1", 5, at(3)));
            driver.submit(job("b", 1).build(), at(4));
            driver.event(event("b", 1, "n1", JobEventType.STARTED, at(5)));
            // a's rate while it shares its GPU with b
            driver.telemetry(Records.telemetry("a", 1, "n1", 2.5, at(20)));
            driver.heartbeat(node("n1", CELL, 1, 1, at(30)).build());
            driver.event(JobEvent.newBuilder(event("b", 1, "n1", JobEventType.SUSPENDED, at(35)))
                    .setCheckpointRef("ckpt").build());

            driver.submit(job("c", 1).build(), at(36));
            driver.event(event("c", 1, "n1", JobEventType.STARTED, at(37)));
            driver.heartbeat(node("n1", CELL, 1, 1, at(50)).build());

            assertThat(rateAfterRevert.get()).as("a's rate once b left, before its next telemetry").isNaN();
            assertThat(baselineOfNextPack.get()).as("the baseline c's pack is judged against").isNaN();
        }
    }

    /** Packs c with a, keeping a's rate as the snapshot shows it. */
    private static List<Decision> pack(ClusterSnapshot s, AtomicReference<Double> rate) {
        rate.set(s.job("a").orElseThrow().throughput());
        return List.of(new Decision.Pack("c", List.of(gpu("n1", 0)), List.of("a"), "scripted: pack c"));
    }

    /** Keeps a's baseline as the snapshot shows it; the decision only ends the script. */
    private static Decision record(ClusterSnapshot s, AtomicReference<Double> baseline) {
        baseline.set(s.job("a").orElseThrow().baselineThroughput());
        return new Decision.ConfirmPlacement("a", "scripted: keep a");
    }

    @Test
    void shouldMigrateBySuspendingAndRestartingOnTheReservedGpus() {
        try (SchedulerDriver driver = driver(ScriptedPolicy.plans(
                s -> s.job("a").isEmpty() ? List.of()
                        : List.of(new Decision.Start("a", List.of(gpu("n1", 0)), "scripted: a")),
                s -> !s.job("a").map(j -> j.isRunning()).orElse(false) ? List.of()
                        : List.of(new Decision.Migrate("a", List.of(gpu("n1", 0)), List.of(gpu("n2", 1)),
                        "scripted: move a"))))) {
            driver.heartbeat(node("n1", CELL, 1, 1, at(0)).build());
            driver.heartbeat(node("n2", CELL, 2, 1, at(0)).build());
            driver.submit(job("a", 1).build(), at(1));
            driver.event(event("a", 1, "n1", JobEventType.STARTED, at(2)));

            driver.heartbeat(node("n1", CELL, 1, 1, at(12)).build());

            NodeCommand suspend = driver.commands().getLast();
            assertThat(suspend.getType()).isEqualTo(NodeCommandType.SUSPEND);
            SchedulingDecision migrate = driver.decisions().getLast();
            assertThat(migrate.getType()).isEqualTo(DecisionType.MIGRATE);
            assertThat(migrate.getFromGpus()).extracting(g -> g.getNodeId()).containsExactly("n1");
            assertThat(migrate.getGpus()).extracting(g -> g.getNodeId() + "/" + g.getIndex()).containsExactly("n2/1");

            driver.event(JobEvent.newBuilder(event("a", 1, "n1", JobEventType.SUSPENDED, at(14)))
                    .setCheckpointRef("ckpt").build());

            NodeCommand restart = driver.commands().getLast();
            assertThat(restart.getType()).isEqualTo(NodeCommandType.START);
            assertThat(restart.getNodeId()).isEqualTo("n2");
            assertThat(restart.getGpuIndices()).containsExactly(1);
            assertThat(restart.getAttempt()).isEqualTo(2);
            assertThat(restart.getCheckpointRef()).isEqualTo("ckpt");
            assertThat(driver.lastStatus("a").getMigrations()).isEqualTo(1);
            assertThat(driver.lastStatus("a").getState()).isEqualTo(JobState.STARTING);
        }
    }
}
